"""Engine benchmark: the whole ``python -m tiebreaks standings`` process against its peers.

    python tests/bench/bench_engine.py [--runs 3] [--sizes 100,1000,2000]
    python tests/bench/bench_engine.py --read-only [--runs 15] [--sizes 2000]

``--read-only`` times only the TRF reader (``read_trf_file``) inside one process, median of
--runs reads per file (the first read, which compiles and caches, is not counted).

For each of tests/bench/data/swiss-{100,1000,2000}-players.trf it times, as whole processes (median
of --runs), with the 26 criteria of the golden files:

* ours: ``python -m tiebreaks standings FILE --json --criteria <26 criteria>``
* tiebreak-core 1.2.0 on the same file (tests/bench/tiebreak_core_runner.py; it reads the file
  with our TRF reader, since tiebreak-core has no parser)
* gacrux: FIDE's tie-break checker as installed from PyPI (the test extra), the way the golden tests
  run it (``python -m gacrux.tiebreakchecker -i FILE -t <criteria>/V2026 -s -d T -n ROUNDS``)
* FIDE's tie-break checker, only when FIDE_CHECKER_DIR names a TieBreakServer checkout
  (``tiebreakchecker.py -i FILE -t <criteria> -s``, run with FIDE_CHECKER_PYTHON, default
  ``python3``; it needs networkx). Not part of this repository.

Before timing, the bytecode of tiebreaks/ is written (``python -m compileall tiebreaks``), as pip
writes gacrux's when it installs it: with PYTHONDONTWRITEBYTECODE set (as in the sessions' shells)
our modules would otherwise be compiled from source in every timed run and gacrux's never (about
40 ms of a 1,000-player run). ``--no-compile`` leaves tiebreaks/__pycache__ as it is (remove it to
time compiling from source; bytecode older than its file is never used).

``--phases`` times, inside one fresh process per program and file (median of --runs, after one untimed run),
each program's reading and its tie-break work apart, in CPU time (``time.process_time``) and wall time:

* reading: ours ``read_trf_with_notes`` (the file's bytes to our model, as the command reads it); gacrux's
  reader (``tiebreakchecker.read_input_file`` and ``prepare_tournament``: the file to its chess JSON)
* tie-breaks: ours ``engine.compute_standings`` (fide-2026, no explanations); gacrux's computation
  (``tiebreakchecker.do_checker``: ``tiebreak.compute_tiebreaks``)
* output: ours ``Standings.to_json``; gacrux's ``apply_result`` and ``write_output_file`` (to /dev/null)

A whole process is mostly start-up and reading for gacrux (its reader is most of its run): the whole-process
ratio says little about the tie-break work, which these columns compare on its own.

``--peers gacrux`` (names, comma-separated) times only those peers. The load average is printed
before and after the runs: on a busy machine the ratios move less than the seconds, and the programs take
turns run by run, so a slower minute of a shared machine falls on each of them.

Prints the machine, the commands and a markdown table with ratios (ours / peer: below 1 means
ours is faster), the 2000/1000 growth and each child's peak memory (``wait4`` rusage). Nothing
here asserts a time: shared machines are noisy, compare within one run. The CPU time of each
child (user + system, ``wait4``) is printed too: on a loaded machine it moves far less than the
wall time.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "tests" / "bench" / "data"
CRITERIA = (
    "PTS,DE,BH,BH/C1,BH/C2,BH/M1,BH/M2,SB,SB/C1,PS,PS/C1,WIN,WON,BPG,BWG,REP,KS,ARO,ARO/C1,TPR,PTP,APRO,APPO,AOB,STD,FB"
)
ROUNDS = {100: 9, 500: 10, 1000: 11, 2000: 11}


def run_once(command: list[str], cwd: Path) -> tuple[float, float, float]:
    """Wall time (s), peak resident memory (MiB) and CPU time (user + system, s) of one child."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    stderr = process.stderr.read().decode(errors="replace") if process.stderr else ""
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({process.returncode}): {stderr.strip()[-500:]}")
    return elapsed, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime  # ru_maxrss is KiB on Linux


def measure(commands: dict[str, tuple[list[str], Path]], runs: int) -> dict[str, tuple[float, float, float]]:
    """Each command's median wall time, peak memory over the runs and median CPU time. The commands take turns
    (ours, then each peer, RUNS times): a shared machine's slower minutes fall on all of them alike."""
    results: dict[str, list[tuple[float, float, float]]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (command, cwd) in commands.items():
            results[name].append(run_once(command, cwd))
    return {
        name: (
            statistics.median(t for t, _, _ in timed),
            max(m for _, m, _ in timed),
            statistics.median(c for _, _, c in timed),
        )
        for name, timed in results.items()
    }


def time_reading(sizes: list[int], runs: int) -> None:
    """The TRF reader alone: median wall time of ``read_trf_file`` per file, in this process."""
    from tiebreaks.trf import read_trf_file

    print("| players | read_trf_file median (ms) | min (ms) | max (ms) |")
    print("|---|---|---|---|")
    for size in sizes:
        path = str(BENCH / f"swiss-{size}-players.trf")
        read_trf_file(path)
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            read_trf_file(path)
            times.append(time.perf_counter() - start)
        print(
            f"| {size:,} | {statistics.median(times) * 1000:.1f} | {min(times) * 1000:.1f} | {max(times) * 1000:.1f} |"
        )


PHASES = ("read", "tiebreaks", "output")


def phase_child(program: str, path: str, rounds: int, runs: int) -> None:
    """In this (fresh) process: each phase's CPU and wall seconds per run, as JSON on stdout (first run untimed)."""
    import json

    def clocks() -> tuple[float, float]:
        return time.process_time(), time.perf_counter()

    def since(start: tuple[float, float]) -> tuple[float, float]:
        now = clocks()
        return now[0] - start[0], now[1] - start[1]

    timed: list[dict[str, tuple[float, float]]] = []
    if program == "ours":
        sys.path.insert(0, str(ROOT))
        from tiebreaks import engine
        from tiebreaks.trf import read_trf_with_notes

        criteria = CRITERIA.split(",")
        for _ in range(runs + 1):
            start = clocks()
            with open(path, "rb") as handle:
                tournament, _notes = read_trf_with_notes(handle.read(), accept_points_column=True)
            read, start = since(start), clocks()
            standings = engine.compute_standings(tournament, criteria, rules="fide-2026", explain=False)
            computed, start = since(start), clocks()
            standings.to_json()
            timed.append({"read": read, "tiebreaks": computed, "output": since(start)})
    else:
        from gacrux.tiebreakchecker import tiebreakchecker

        argv = ["tiebreakchecker", "-i", path, "-o", os.devnull, "-t", *(f"{c}/V2026" for c in CRITERIA.split(","))]
        argv += ["-s", "-d", "T", "-n", str(rounds)]
        for _ in range(runs + 1):
            sys.argv = argv
            checker = tiebreakchecker()
            checker.read_command_line()
            start = clocks()
            checker.read_input_file()
            checker.prepare_tournament()
            read, start = since(start), clocks()
            checker.do_checker()
            computed, start = since(start), clocks()
            checker.apply_result()
            checker.write_output_file()
            timed.append({"read": read, "tiebreaks": computed, "output": since(start)})
    json.dump(timed[1:], sys.stdout)


def time_phases(sizes: list[int], runs: int, programs: list[str]) -> None:
    """Reading, tie-break work and output of each program apart, in CPU time (and wall time)."""
    import json

    found: dict[int, dict[str, dict[str, tuple[float, float]]]] = {}
    for size in sizes:
        path = str(BENCH / f"swiss-{size}-players.trf")
        found[size] = {}
        for program in programs:
            command = [sys.executable, __file__, "--phase-child", program, path, str(ROUNDS.get(size, 0)), str(runs)]
            runs_timed = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
            found[size][program] = {
                phase: (
                    statistics.median(run[phase][0] for run in runs_timed),
                    statistics.median(run[phase][1] for run in runs_timed),
                )
                for phase in PHASES
            }
        print(f"measured phases of {size} players", file=sys.stderr)
    peers = [p for p in programs if p != "ours"]
    header = ["players × rounds", "phase", "ours CPU (wall) ms"]
    for peer in peers:
        header += [f"{peer} CPU (wall) ms", f"{peer} / ours (CPU)"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for size in sizes:
        for phase in PHASES:
            ours_cpu, ours_wall = found[size]["ours"][phase]
            cells = [f"{size:,} × {ROUNDS.get(size, '?')}", phase, f"{ours_cpu * 1000:.0f} ({ours_wall * 1000:.0f})"]
            for peer in peers:
                cpu, wall = found[size][peer][phase]
                cells += [f"{cpu * 1000:.0f} ({wall * 1000:.0f})", f"{cpu / ours_cpu:.1f}×" if ours_cpu else "-"]
            print("| " + " | ".join(cells) + " |")


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main() -> int:
    args = _arguments()
    if args.phase_child:
        program, path, rounds, runs = args.phase_child
        phase_child(program, path, int(rounds), int(runs))
        return 0
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.read_only:
        sys.path.insert(0, str(ROOT))
        time_reading(sizes, args.runs)
        return 0
    if not args.no_compile:
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(ROOT / "tiebreaks")], check=True, stdout=subprocess.DEVNULL
        )
    print_setup(args)
    if args.phases:
        programs = [p for p in ("ours", "gacrux") if p == "ours" or importlib.util.find_spec(p)]
        print(f"Phases inside one process per program and file (`{sys.argv[0]} --phase-child PROGRAM FILE ROUNDS")
        print(f"RUNS`), median of {args.runs} runs after an untimed one; CPU time (process_time), wall in brackets:\n")
        time_phases(sizes, args.runs, programs)
        print("\nload average after (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
        return 0
    results: dict[int, dict[str, tuple[float, float, float]]] = {}
    for size in sizes:
        path = BENCH / f"swiss-{size}-players.trf"
        results[size] = measure(commands(path, args.peers, ROUNDS.get(size, 0)), args.runs)
        print(f"measured {size} players", file=sys.stderr)
    print_whole_processes(results, sizes)
    print("\nload average after (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    print_ratios(results, sizes)
    return 0


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="100,1000,2000")
    parser.add_argument("--read-only", action="store_true", help="time only the TRF reader")
    parser.add_argument("--peers", default="", help="only these peers (e.g. gacrux,tiebreak-core)")
    parser.add_argument("--no-compile", action="store_true", help="do not write tiebreaks/' bytecode first")
    parser.add_argument("--phases", action="store_true", help="reading and tie-break work apart, per program")
    parser.add_argument("--phase-child", nargs=4, metavar=("PROGRAM", "FILE", "ROUNDS", "RUNS"), help=argparse.SUPPRESS)
    return parser.parse_args()


def commands(path: Path, peers: str, rounds: int | str = "ROUNDS") -> dict[str, tuple[list[str], Path]]:
    """Each program's command on the file `path` and the folder it runs in: ours and the peers installed (FIDE's
    checker when FIDE_CHECKER_DIR names it), only ours and `peers` when given (comma-separated)."""
    python = sys.executable
    checker_dir = os.environ.get("FIDE_CHECKER_DIR")
    checker_python = os.environ.get("FIDE_CHECKER_PYTHON", "python3")
    found = {
        "ours": (
            [python, "-m", "tiebreaks", "standings", str(path), "--json", "--criteria", CRITERIA],
            ROOT,
        ),
        "tiebreak-core": (
            [python, str(ROOT / "tests" / "bench" / "tiebreak_core_runner.py"), str(path), CRITERIA],
            ROOT,
        ),
    }
    if importlib.util.find_spec("gacrux"):
        found["gacrux"] = (
            [python, "-m", "gacrux.tiebreakchecker", "-i", str(path), "-t"]
            + [f"{c}/V2026" for c in CRITERIA.split(",")]
            + ["-s", "-d", "T", "-n", str(rounds)],
            ROOT,
        )
    if checker_dir:
        found["FIDE checker"] = (
            [checker_python, "tiebreakchecker.py", "-i", str(path), "-t", *CRITERIA.split(","), "-s"],
            Path(checker_dir),
        )
    wanted = {"ours", *peers.split(",")} if peers else set(found)
    return {name: command for name, command in found.items() if name in wanted}


def print_setup(args: argparse.Namespace) -> None:
    """The machine, the Python, how the runs are counted and each program's command, above the tables."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cpus = os.cpu_count() or 0
    python = sys.executable
    print("## Engine benchmark\n")
    print(f"- machine: {cpus} CPUs (nproc), {cpu_model()}; {platform.platform()}")
    print(f"- python: {platform.python_version()} ({python})")
    print(f"- runs: median of {args.runs} whole-process runs per cell, programs taking turns; peak RSS: their max")
    bytecode = "as it was (--no-compile)" if args.no_compile else "written first (compileall), as pip does for gacrux"
    no_write = os.environ.get("PYTHONDONTWRITEBYTECODE", "")
    print(f"- bytecode of tiebreaks/: {bytecode}; PYTHONDONTWRITEBYTECODE={no_write!r}")
    print("- load average before (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    for name, (command, cwd) in commands(BENCH / "swiss-NNNN-players.trf", args.peers).items():
        print(f"- {name}: `{' '.join(command)}` (in {cwd})")
    if not os.environ.get("FIDE_CHECKER_DIR"):
        print("- FIDE checker: skipped (set FIDE_CHECKER_DIR to a TieBreakServer checkout)")
    print()


def print_whole_processes(results: dict[int, dict[str, tuple[float, float, float]]], sizes: list[int]) -> None:
    """The table of whole-process times and peak memory, one row per file."""
    peers = [name for name in results[sizes[0]] if name != "ours"]
    header = ["players × rounds", "ours (s)"]
    for peer in peers:
        header += [f"{peer} (s)", f"ours / {peer}"]
    header += ["ours peak MiB", *(f"{peer} peak MiB" for peer in peers)]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for size in sizes:
        row = results[size]
        ours_t, ours_m, _ = row["ours"]
        cells = [f"{size:,} × {ROUNDS.get(size, '?')}", f"{ours_t:.2f}"]
        for peer in peers:
            cells += [f"{row[peer][0]:.2f}", f"{ours_t / row[peer][0]:.2f}"]
        cells += [f"{ours_m:.0f}", *(f"{row[peer][1]:.0f}" for peer in peers)]
        print("| " + " | ".join(cells) + " |")


def print_ratios(results: dict[int, dict[str, tuple[float, float, float]]], sizes: list[int]) -> None:
    """How much faster ours is than each peer (time and CPU), and how each grows from 1,000 to 2,000 players."""
    peers = [name for name in results[sizes[0]] if name != "ours"]
    for peer in peers:
        faster = ", ".join(f"{size:,}: {results[size][peer][0] / results[size]['ours'][0]:.1f}×" for size in sizes)
        print(f"ours faster than {peer} ({peer} / ours): {faster}")
        cpu = ", ".join(
            f"{size:,}: {results[size]['ours'][2]:.3f} s vs {results[size][peer][2]:.2f} s, "
            f"{results[size][peer][2] / results[size]['ours'][2]:.1f}×"
            for size in sizes
        )
        print(f"CPU time (user + system, median), ours vs {peer}: {cpu}")
    if 1000 in results and 2000 in results:
        growth = ", ".join(f"{name} {results[2000][name][0] / results[1000][name][0]:.2f}" for name in results[2000])
        print(f"\nGrowth 2000 / 1000 players (time): {growth} (linear would be 2.0, quadratic 4.0)")


if __name__ == "__main__":
    sys.exit(main())
