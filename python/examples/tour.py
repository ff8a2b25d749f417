"""A short tour of Atoll's Python front end (Arkouda's API, no server).

Run: ATOLL_LOCALES=4 .venv/bin/python python/examples/tour.py
"""

import atoll as ak
import numpy as np

print(f"atoll: {ak.num_locales()} locales on the {ak.backend()} backend; the Python thread is the driver")

# Creation
n = 10_000_000
a = ak.arange(n)
b = ak.randint(0, 100, n, seed=1)
c = ak.array(np.linspace(0.0, 1.0, n))
print("a =", a)
print("b =", b, b.dtype)

# Arithmetic: one fused pass, no temporary for 3 * c
d = ak.zeros(n)
d[:] = a + 3.0 * c
print("d = a + 3*c ->", d)

# A reduction
print("sum(b) =", ak.sum(b), " mean(b) =", round(float(ak.mean(b)), 3), " max(d) =", ak.max(d))

# argsort
p = ak.argsort(b)
print("b sorted:", b[p], " is_sorted:", ak.is_sorted(b[p]))

# A view: O(1), writes go through
v = a[::2]
v[:5] = -1
print("a[::2] view, after v[:5] = -1:", a[:12])

# A mask and a gather
print("b[b > 97].size =", b[b > 97].size, " (NumPy:", int((b.to_ndarray() > 97).sum()), ")")

# Distributed memory
for s in ak.get_mem_status():
    print(f"  locale {s['locale_id']}: {s['mem_used'] / 2**20:8.1f} MiB of arrays in use")
print(f"total: {ak.get_mem_used() / 2**20:.1f} MiB")
