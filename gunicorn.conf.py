"""gunicorn's settings file: gunicorn reads it from the working directory (the image's /app)."""

import os


def child_exit(server, worker):
    # prometheus-client's multiprocess mode keeps a file per process: a worker that died
    # must leave the live gauges (open streams), or its last value counts for ever.
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
