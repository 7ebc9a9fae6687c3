# English dates for readers on both sides of the Atlantic: day, month by name, year, and a
# 24-hour clock ("12 Jan 2026, 08:07"), never "01/12/2026 8:07 a.m.", which reads as
# the 1st of December in most of the world.
DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
TIME_FORMAT = "H:i"
