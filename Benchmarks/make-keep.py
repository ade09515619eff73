#!/usr/bin/env python3
"""Seeded generator of a Google Takeout `Keep/` folder, for the `notes import keep` benchmark.

    python3 make-keep.py --notes 10000 --out DIR [--seed 1]

Writes one JSON file per note into DIR, as Takeout does (`<title or a date>.json`), with the
fields Takeout writes: `title`, `textContent` or (one note in four) `listContent` [{`text`,
`isChecked`}], `userEditedTimestampUsec`, `createdTimestampUsec` (microseconds since 1970),
`labels` [{`name`}], `isTrashed` (one note in fifty), `isArchived` (one in ten), `isPinned` (one in
twenty), `color`, and on one note in twenty `attachments` [{`filePath`, `mimetype`}] naming a small
PNG written beside the JSON files. Same arguments, byte-identical files.
"""
import argparse
import json
import os
import random
import struct
import zlib

WORDS = ("milk eggs bread coffee meeting plan idea trip Tokyo café Straße crème brûlée budget "
         "garden book film call email project draft review notes list weekend recipe").split()
LABELS = ["home", "work", "recipes", "travel", "ideas", "reading", "family", "café"]


def png(seed):
    """A tiny valid 2x2 PNG whose colour depends on `seed`."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    colour = bytes([seed % 256, (seed * 7) % 256, (seed * 13) % 256])
    raw = b"".join(b"\x00" + colour * 2 for _ in range(2))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def sentence(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--notes", type=int, default=10000)
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    start = 1_577_836_800_000_000  # 2020-01-01T00:00:00Z in microseconds
    for i in range(args.notes):
        created = start + rng.randrange(5 * 365 * 86400) * 1_000_000 + rng.randrange(1_000_000)
        edited = created + rng.randrange(30 * 86400) * 1_000_000
        title = sentence(rng, rng.randint(1, 4)).rstrip(".") if rng.random() < 0.9 else ""
        note = {
            "color": rng.choice(["DEFAULT", "RED", "YELLOW", "BLUE"]),
            "isTrashed": i % 50 == 49,
            "isPinned": i % 20 == 3,
            "isArchived": i % 10 == 7,
            "title": title,
            "userEditedTimestampUsec": edited,
            "createdTimestampUsec": created,
        }
        if i % 4 == 1:
            note["listContent"] = [
                {"text": sentence(rng, rng.randint(1, 5)), "isChecked": rng.random() < 0.4}
                for _ in range(rng.randint(1, 8))
            ]
        else:
            note["textContent"] = "\n\n".join(sentence(rng, rng.randint(4, 20)) for _ in range(rng.randint(1, 6)))
        if rng.random() < 0.5:
            note["labels"] = [{"name": name} for name in rng.sample(LABELS, rng.randint(1, 3))]
        if i % 20 == 11:
            name = "%016x.png" % rng.getrandbits(64)
            with open(os.path.join(args.out, name), "wb") as f:
                f.write(png(i))
            note["attachments"] = [{"filePath": name, "mimetype": "image/png"}]
        # Takeout names a note's file after its title (or its date), `(1)` and so on when taken.
        base = (title or "note %d" % i).replace("/", "_")[:50]
        name, n = base + ".json", 1
        while os.path.exists(os.path.join(args.out, name)):
            name, n = "%s(%d).json" % (base, n), n + 1
        with open(os.path.join(args.out, name), "w", encoding="utf-8") as f:
            json.dump(note, f, ensure_ascii=False)


if __name__ == "__main__":
    main()
