#!/bin/sh
# Restore a backup of deploy/backup.sh into an EMPTY database (README "Backups").
#
#   DATABASE_URL=... deploy/restore.sh FILE
#
# It refuses a database that already has tables (or an SQLite file that exists): a
# restore never mixes with what is there. Afterwards run `manage.py migrate` (a dump of
# an older release) and `manage.py check_replays`.
set -eu

url=${DATABASE_URL:?DATABASE_URL is not set}
file=${1:?usage: restore.sh FILE}
[ -s "$file" ] || { echo "restore.sh: no backup at $file" >&2; exit 2; }

case "$url" in
  postgres://* | postgresql://* | pgsql://*)
    target="postgresql://${url#*://}"
    tables=$(psql -X -qtA --dbname="$target" \
      -c "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
    if [ "$tables" != 0 ]; then
      echo "restore.sh: the database has $tables tables; restore into an empty one" >&2
      exit 3
    fi
    pg_restore --no-owner --no-privileges --exit-on-error --single-transaction \
      --dbname="$target" "$file"
    ;;
  sqlite://*)
    target=${url#sqlite:///}
    if [ -e "$target" ]; then
      echo "restore.sh: $target exists; restore into a new file" >&2
      exit 3
    fi
    python3 -c 'import sqlite3, sys
source, target = sqlite3.connect(sys.argv[1]), sqlite3.connect(sys.argv[2])
source.backup(target)
target.close()
source.close()' "$file" "$target"
    ;;
  *)
    echo "restore.sh: no restore for a database like ${url%%://*}://" >&2
    exit 2
    ;;
esac
echo "restored $file"
