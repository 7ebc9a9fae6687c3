#!/bin/sh
# Back up the site's database to a dated file and delete those older than
# BACKUP_KEEP_DAYS (README "Backups").
#
#   DATABASE_URL=... deploy/backup.sh [DIR]        (DIR: $BACKUP_DIR, else ./backups)
#   docker compose -f deploy/compose.yaml run --rm backup
#
# PostgreSQL: pg_dump's custom format (compressed; deploy/restore.sh reads it back).
# SQLite: SQLite's online backup, consistent while the site writes. Prints the file's path.
set -eu

url=${DATABASE_URL:?DATABASE_URL is not set}
dir=${1:-${BACKUP_DIR:-backups}}
keep=${BACKUP_KEEP_DAYS:-14}
case "$keep" in '' | *[!0-9]* | 0) echo "BACKUP_KEEP_DAYS: a whole number of days, 1 or more" >&2; exit 2 ;; esac
stamp=$(date -u +%Y-%m-%dT%H%M%SZ)
mkdir -p "$dir"

case "$url" in
  postgres://* | postgresql://* | pgsql://*)
    file="$dir/pbw-$stamp.pgdump"
    # libpq reads postgres:// and postgresql:// URLs; django-environ also knows pgsql://.
    pg_dump --format=custom --no-owner --no-privileges \
      --dbname="postgresql://${url#*://}" --file="$file.partial"
    ;;
  sqlite://*)
    # sqlite:////absolute/path or sqlite:///relative/path, as django-environ reads them.
    source=${url#sqlite:///}
    file="$dir/pbw-$stamp.sqlite3"
    if command -v sqlite3 >/dev/null 2>&1; then
      sqlite3 "$source" ".backup '$file.partial'"
    else
      python3 -c 'import sqlite3, sys
source, target = sqlite3.connect(sys.argv[1]), sqlite3.connect(sys.argv[2])
source.backup(target)
target.close()
source.close()' "$source" "$file.partial"
    fi
    ;;
  *)
    echo "backup.sh: no backup for a database like ${url%%://*}://" >&2
    exit 2
    ;;
esac
# Only a finished dump gets its name: a dump cut short never looks like a backup.
mv "$file.partial" "$file"
find "$dir" -maxdepth 1 -type f -name 'pbw-*' -mmin +$((keep * 24 * 60)) -delete
echo "$file"
