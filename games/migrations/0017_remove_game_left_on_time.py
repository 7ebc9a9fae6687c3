from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0016_seat_vacated"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="game",
            name="left_on_time",
        ),
    ]
