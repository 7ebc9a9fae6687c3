"""Writes static/sounds/your-turn.wav: the short chime of the in-tab "your turn" notice.

Run from the project root: ``python docs/make_turn_sound.py``. Two soft sine tones
(E5 then A5) with a quick fade, 16-bit mono, so no sound file comes from elsewhere.
"""

import math
import struct
import wave
from pathlib import Path

RATE = 22050
TONES = [(659.25, 0.14), (880.0, 0.22)]  # (Hz, seconds)
VOLUME = 0.35


def samples():
    for freq, seconds in TONES:
        n = int(RATE * seconds)
        for i in range(n):
            fade = min(1.0, i / (RATE * 0.01), (n - i) / (RATE * 0.06))
            yield VOLUME * fade * math.sin(2 * math.pi * freq * i / RATE)


def main() -> None:
    out = Path(__file__).resolve().parents[1] / "static" / "sounds" / "your-turn.wav"
    with wave.open(str(out), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(b"".join(struct.pack("<h", int(s * 32767)) for s in samples()))
    print(out, out.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
