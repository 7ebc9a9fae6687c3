"""A Celery app on the embedded broker's transport in a folder of the test's own
(``FLOOD_DIR``), with one task that writes down each message it consumes.
``FLOOD_TRANSPORT`` picks the transport (kombu's own, to see it fail)."""

import os
from pathlib import Path

from celery import Celery

folder = Path(os.environ["FLOOD_DIR"])
app = Celery("flood")
app.conf.update(
    broker_url="filesystem://",
    broker_transport=os.environ.get("FLOOD_TRANSPORT", "config.broker_files:Transport"),
    broker_transport_options={
        "data_folder_in": str(folder / "queue"),
        "data_folder_out": str(folder / "queue"),
        "processed_folder": str(folder / "processed"),
        "control_folder": str(folder / "control"),
        "store_processed": False,
        # Poll often: a worker that has caught up looks at files as they are made.
        "polling_interval": 0.001,
    },
    task_ignore_result=True,
    worker_hijack_root_logger=False,
)


@app.task(name="flood.record")
def record(label: str, padding: str) -> None:
    # One short write per line with O_APPEND: lines of one process never interleave.
    with open(folder / "consumed.txt", "a") as out:
        out.write(label + "\n")


def produce(producer: int, count: int, size: int) -> None:
    padding = "x" * size
    for n in range(count):
        record.delay(f"{producer}:{n}", padding)
