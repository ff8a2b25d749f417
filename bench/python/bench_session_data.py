"""Taxi-like trips and a zone table for bench/python/bench_session.py: seeded NumPy code,
written as Parquet.

    python bench/python/bench_session_data.py --n 1000000 --out DIR

Files (in DIR): ``trips_<n>.parquet`` (n rows), ``zones.parquet`` (265 rows) and
``payments.parquet`` (one row per payment type, with a description).

trips columns:
    pu_zone, do_zone   int64 zone ids in 1..265, skewed (weights 1/rank^1.2 over a seeded
                       permutation of the ids, so a few zones hold most trips)
    pickup_ns          int64 nanoseconds since the Unix epoch (not a Parquet timestamp):
                       uniform over January 2024
    passengers         int64 in 0..8 (mostly 1; 0, 7 and 8 are rare, and the filter drops them)
    distance           float64 miles, exponential (mean 3), 2 decimals; about 1% are 0
    fare               float64 dollars, 3 + 2.5 a mile + noise, 2 decimals; about 1% are <= 0
    tip                float64 dollars, 2 decimals; 0 unless paid by card
    payment_type       string: "card", "cash", "no charge", "dispute", "unknown"
    vendor             string: "CMT", "VTS", "DDS"
    street             string: a pickup street name (a vocabulary of about 1,000 names, e.g.
                       "W 42nd St", "Park Ave", "E Broadway Blvd")
    store_and_fwd      string: "Y" or "N"

zones columns: zone_id (int64 1..265), borough, zone, service_zone (strings).
payments columns: payment_type, description (strings).
"""

from __future__ import annotations

import argparse
import os

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

N_ZONES = 265
BOROUGHS = ["Manhattan", "Brooklyn", "Queens", "Bronx", "Staten Island", "EWR", "Unknown"]
BOROUGH_ZONES = [69, 61, 69, 43, 20, 1, 2]  # 265 in all
SERVICE = ["Yellow Zone", "Boro Zone", "Airports", "EWR", "N/A"]
PAYMENTS = ["card", "cash", "no charge", "dispute", "unknown"]
PAYMENT_P = [0.72, 0.24, 0.02, 0.01, 0.01]
DESCRIPTIONS = ["Credit card", "Cash", "No charge", "Dispute", "Unknown"]
VENDORS = ["CMT", "VTS", "DDS"]
VENDOR_P = [0.3, 0.68, 0.02]
JAN_2024_NS = 1_704_067_200 * 10**9
NS_PER_HOUR = 3_600 * 10**9
CHUNK = 1 << 21

_NAMES = [
    "Park", "Broadway", "Lexington", "Madison", "Amsterdam", "Columbus", "Atlantic", "Flatbush",
    "Queens", "Northern", "Jamaica", "Fulton", "Canal", "Houston", "Delancey", "Bowery",
    "Christopher", "Bleecker", "Hudson", "Greenwich", "Central Park", "Riverside", "Ocean",
    "Kings", "Bedford", "Myrtle", "Grand", "Union", "Church", "Chambers", "Worth", "Spring",
    "Prince", "Mercer", "Greene", "Wooster", "Astor", "Lafayette", "Vesey", "Liberty",
]  # fmt: skip
_SUFFIXES = ["St", "Ave", "Blvd", "Pl", "Rd", "Pkwy"]


def _ordinal(k):
    if k % 100 in (11, 12, 13):
        return f"{k}th"
    return f"{k}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th') }"


def street_vocabulary():
    """The street names the trips draw from: named and numbered streets, with and without a
    compass prefix (a fixed list, the same for every seed)."""
    out = []
    for pre in ("", "W ", "E "):
        for nm in _NAMES:
            for suf in _SUFFIXES[:4]:
                out.append(f"{pre}{nm} {suf}")
    for pre in ("W ", "E ", "N ", "S "):
        for k in range(1, 121):
            out.append(f"{pre}{_ordinal(k)} St")
    return out


def zone_table(seed=0):
    """The 265-row zone table as a pyarrow Table."""
    rng = np.random.default_rng(seed + 1)
    borough = np.repeat(np.arange(len(BOROUGHS)), BOROUGH_ZONES)
    syl = ["ber", "wood", "ton", "ville", "field", "park", "hill", "port", "dale", "side", "gate", "view"]
    names = []
    for i in range(N_ZONES):
        a, b = rng.integers(0, len(syl), 2)
        names.append(f"{syl[a].capitalize()}{syl[b]} {i + 1:03d}")
    service = np.where(
        borough == 0,
        0,
        np.where(borough == 5, 3, np.where(borough == 6, 4, 1)),
    )
    service[rng.choice(np.flatnonzero(borough == 2), 2, replace=False)] = 2  # two airports in Queens
    return pa.table(
        {
            "zone_id": np.arange(1, N_ZONES + 1, dtype=np.int64),
            "borough": [BOROUGHS[b] for b in borough],
            "zone": names,
            "service_zone": [SERVICE[s] for s in service],
        }
    )


def payment_table():
    return pa.table({"payment_type": PAYMENTS, "description": DESCRIPTIONS})


def _strings(codes, vocab):
    """A plain (not dictionary) pyarrow string array of vocab[codes]."""
    d = pa.DictionaryArray.from_arrays(pa.array(codes.astype(np.int32)), pa.array(vocab, pa.string()))
    return d.cast(pa.string())


def trips_chunk(rng, n, zone_p, streets):
    """n trips as a pyarrow Table (the columns listed in the module's docstring)."""
    pu = rng.choice(N_ZONES, n, p=zone_p).astype(np.int64) + 1
    do = rng.choice(N_ZONES, n, p=zone_p).astype(np.int64) + 1
    pickup = JAN_2024_NS + rng.integers(0, 31 * 24 * NS_PER_HOUR, n, dtype=np.int64)
    passengers = rng.choice(9, n, p=[0.02, 0.7, 0.14, 0.05, 0.03, 0.03, 0.025, 0.003, 0.002]).astype(np.int64)
    dist = np.round(rng.exponential(3.0, n), 2)
    dist[rng.random(n) < 0.01] = 0.0
    fare = np.round(3.0 + 2.5 * dist + rng.normal(0, 1.5, n), 2)
    bad = rng.random(n) < 0.01
    fare[bad] = -np.abs(fare[bad])
    pay = rng.choice(len(PAYMENTS), n, p=PAYMENT_P)
    tip = np.where(pay == 0, np.round(np.maximum(fare, 0) * rng.uniform(0, 0.3, n), 2), 0.0)
    vendor = rng.choice(len(VENDORS), n, p=VENDOR_P)
    street = rng.integers(0, len(streets), n)
    fwd = (rng.random(n) < 0.005).astype(np.int64)
    return pa.table(
        {
            "pu_zone": pu,
            "do_zone": do,
            "pickup_ns": pickup,
            "passengers": passengers,
            "distance": dist,
            "fare": fare,
            "tip": tip,
            "payment_type": _strings(pay, PAYMENTS),
            "vendor": _strings(vendor, VENDORS),
            "street": _strings(street, streets),
            "store_and_fwd": _strings(fwd, ["N", "Y"]),
        }
    )


def trips_name(n):
    return f"trips_{n}.parquet"


def make(n, out, seed=0):
    """Writes the three tables into `out` (trips only when its file is not there yet);
    returns {"trips": path, "zones": path, "payments": path}."""
    os.makedirs(out, exist_ok=True)
    paths = {
        "trips": os.path.join(out, trips_name(n)),
        "zones": os.path.join(out, "zones.parquet"),
        "payments": os.path.join(out, "payments.parquet"),
    }
    pq.write_table(zone_table(seed), paths["zones"])
    pq.write_table(payment_table(), paths["payments"])
    if os.path.exists(paths["trips"]):
        return paths
    rng = np.random.default_rng(seed)
    w = 1.0 / np.arange(1, N_ZONES + 1) ** 1.2
    zone_p = np.empty(N_ZONES)
    zone_p[rng.permutation(N_ZONES)] = w / w.sum()
    streets = street_vocabulary()
    tmp = paths["trips"] + ".tmp"
    writer = None
    done = 0
    while done < n:
        m = min(CHUNK, n - done)
        t = trips_chunk(rng, m, zone_p, streets)
        if writer is None:
            writer = pq.ParquetWriter(tmp, t.schema)
        writer.write_table(t)
        done += m
    if writer is None:  # n == 0
        writer = pq.ParquetWriter(tmp, trips_chunk(rng, 0, zone_p, streets).schema)
    writer.close()
    os.replace(tmp, paths["trips"])
    return paths


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=5_000_000)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    print(make(a.n, a.out, a.seed))


if __name__ == "__main__":
    main()
