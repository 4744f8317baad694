#!/usr/bin/python3
"""bench/callgrind_groups.py -- a callgrind profile's instructions grouped by where they run.

Reads `callgrind_annotate --threshold=100` of FILE (exclusive costs) and sums them into
groups: blsim's directories (model/, switcher/ = the C kernel, workloads/, soc/), the SystemC
kernel (libsystemc and its TLM headers), the C and C++ libraries, libyaml, the dynamic
loader. Also prints a few inclusive totals (the simulation proper, configuration loading).
Library code inlined into one of blsim's functions counts as that function's directory.

usage: bench/callgrind_groups.py callgrind.out.N
"""
import re
import subprocess
import sys
from collections import defaultdict

SYSTEMC = "SystemC kernel (libsystemc, TLM headers)"
MODELS = "models (model/)"
CKERNEL = "C kernel (switcher/)"
WORKLOADS = "workloads (workloads/)"
SOC = "composition, config, results (soc/)"
DIRS = [("/model/", MODELS), ("/switcher/", CKERNEL), ("/workloads/", WORKLOADS), ("/soc/", SOC)]
NAMESPACES = {"model": MODELS, "workloads": WORKLOADS, "soc": SOC, "cfg": SOC}
# By the file the instructions come from, then (for library headers inlined into blsim's
# functions) by the function's namespace, then by the shared object.
FILES = [
    (lambda f, o: "libsystemc" in o or "/usr/include/sysc" in f or "/usr/include/tlm" in f, SYSTEMC),
    (lambda f, o: "ld-linux" in o or f.startswith("./elf/"), "dynamic loader (ld.so)"),
    (lambda f, o: "libyaml" in o, "libyaml"),
    (lambda f, o: f.startswith("./malloc/"), "libc malloc/free"),
    (lambda f, o: f.startswith("./string/"), "libc memset/memcpy/strings"),
    (lambda f, o: f.startswith(("./stdio-common/", "./stdlib/")), "libc printf/strtod/exit"),
    (lambda f, o: f.startswith("./math/") or "libm.so" in o, "libm"),
    (lambda f, o: "libc.so" in o, "libc other"),
    (lambda f, o: "libstdc++" in o, "libstdc++"),
]


def classify(text, obj):
    file, _, func = text.partition(":")
    for d, group in DIRS:
        if d in file:
            return group
    m = re.search(r"blsim::(\w+)::", func)
    if m and m.group(1) in NAMESPACES and not file.startswith("/usr/include/sysc"):
        return NAMESPACES[m.group(1)]
    if func.startswith("bls_"):
        return CKERNEL
    for test, group in FILES:
        if test(file, obj):
            return group
    return "other (C++ standard library headers, unattributed)"


INCLUSIVE = [
    ("the simulation (sc_simcontext::simulate)", "sc_core::sc_simcontext::simulate("),
    ("configuration loading (load_scenario)", "blsim::soc::load_scenario("),
    ("building the configuration schema", "blsim::soc::(anonymous namespace)::scenario_schema("),
    ("the platform's construction (platform::platform)", "blsim::soc::platform::platform("),
    ("effective-config.yaml (effective_yaml)", "blsim::soc::effective_yaml"),
    ("summary.json (summary_json)", "blsim::soc::summary_json"),
    ("dynamic loading and relocation (_dl_start)", "rtld.c:_dl_start"),
    ("static initialisers (_dl_init)", "dl-init.c:_dl_init"),
    ("exit handlers and static destructors (exit)", "exit.c:exit "),
]

LINE = re.compile(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+(\S.*)$")


def rows(path, inclusive):
    out = subprocess.run(["callgrind_annotate", "--threshold=100", "--auto=no",
                          f"--inclusive={'yes' if inclusive else 'no'}", path],
                         check=True, capture_output=True, text=True).stdout
    body = out.split("file:function", 1)[1].split("\n", 2)[2]  # past the header's rule
    for line in body.splitlines():
        if not line.strip():
            break  # the end of the function table
        m = LINE.match(line)
        if not m:
            continue
        text = m.group(2)
        m2 = re.search(r"\[(/[^\]]*)\]$", text)
        obj = m2.group(1) if m2 else ""
        yield int(m.group(1).replace(",", "")), text, obj


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    sums, total = defaultdict(int), 0
    for ir, text, obj in rows(sys.argv[1], False):
        total += ir
        sums[classify(text, obj)] += ir
    print(f"total: {total:,} instructions")
    print("exclusive, by where the instructions run:")
    for name, ir in sorted(sums.items(), key=lambda kv: -kv[1]):
        print(f"  {ir / total * 100:5.1f} %  {ir:>13,}  {name}")
    print("inclusive:")
    seen = {}
    for ir, text, _ in rows(sys.argv[1], True):
        for name, key in INCLUSIVE:
            if key in text and name not in seen:
                seen[name] = ir
    for name, _ in INCLUSIVE:
        if name in seen:
            print(f"  {seen[name] / total * 100:5.1f} %  {seen[name]:>13,}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
