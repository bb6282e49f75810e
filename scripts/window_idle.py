#!/usr/bin/python3
"""How long the window keeps the CPU busy after opening a lesson.

    scripts/window_idle.py [--binary build/app/attnbook] [LESSON ...]

Starts the real window on each lesson under Xvfb (xvfb-run), samples the process's CPU time
(utime + stime in /proc/PID/stat) every 20 ms, and reports:

  shown   seconds from start until the window is mapped (xdotool search --sync)
  idle    seconds from the window being shown until the CPU goes idle: the start of the
          first 500 ms during which the process used less than 2 % of one core
  busy    CPU seconds used from start to idle

With no LESSON it measures the bundled attention.md and transformers.md and two generated
1 MB lessons: megabyte.md (attention.md, then sections of prose with a binding each) and
flat-megabyte.md (1 MB of paragraphs under the title, not one heading); `--write DIR` writes
those two into DIR and stops. A benchmark, not a test: the figures depend on the machine (say
the load average, `uptime`, with them); run it on a quiet one.
"""
import argparse
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")
WINDOW_S = 0.5     # the idle window
IDLE_SHARE = 0.02  # of one core
CONFIG_HOME = tempfile.mkdtemp(prefix="attnbook-idle-")


def cpu_seconds(pid):
    """utime + stime of `pid` and its threads, in seconds; None when it has exited."""
    try:
        fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICK


def megabyte_lesson(path):
    """A 1 MB lesson: many sections of prose, a binding in each, and three cells."""
    head = pathlib.Path(HERE / "documents" / "attention.md").read_text()
    parts = [head]
    paragraph = ("Attention lets every token look at every other token and decide how much "
                 "of each one to take. The share of the first key is "
                 "{{colour.head[0].weights[0][0]:3}}, and the rest follows the same rule. ")
    section = 0
    while sum(len(p) for p in parts) < 1_000_000:
        section += 1
        parts.append(f"\n\n## Section {section}\n\n" + paragraph * 6 + "\n")
    path.write_text("".join(parts))


def flat_megabyte_lesson(path):
    """A 1 MB lesson of paragraphs alone: no heading to cut its prose at."""
    paragraph = ("Attention lets every token look at every other token and decide how much "
                 "of each one to take, and the rest follows the same rule. ") * 6 + "\n\n"
    parts = ["---\ntitle: A megabyte of prose\n---\n\n"]
    while sum(len(p) for p in parts) < 1_000_000:
        parts.append(paragraph)
    path.write_text("".join(parts))


def measure(binary, lesson, display_timeout=30.0, limit=60.0):
    # A settings folder of its own: the measurement never touches the user's Open Recent.
    env = dict(os.environ, QT_QPA_PLATFORM="xcb", XDG_CONFIG_HOME=CONFIG_HOME)
    start = time.monotonic()
    proc = subprocess.Popen([binary, str(lesson)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    shown = None
    finder = subprocess.Popen(["xdotool", "search", "--sync", "--onlyvisible", "--pid",
                               str(proc.pid)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    samples = []  # (seconds since start, cpu seconds)
    candidate = 0  # the earliest sample that may start the idle window
    try:
        while time.monotonic() - start < limit:
            now = time.monotonic() - start
            used = cpu_seconds(proc.pid)
            if used is None:
                break
            samples.append((now, used))
            if shown is None and finder.poll() is not None:
                shown = now
            if shown is None:
                if now > display_timeout:
                    break
                candidate = len(samples)
            # The window from samples[candidate] to now: idle when long enough and quiet;
            # move on to the next sample while it is long enough and busy.
            while candidate < len(samples) and now - samples[candidate][0] >= WINDOW_S:
                t0, c0 = samples[candidate]
                if (used - c0) / (now - t0) < IDLE_SHARE:
                    return shown, t0 - shown, c0
                candidate += 1
            time.sleep(0.02)
        return shown, None, samples[-1][1] if samples else None
    finally:
        finder.kill()
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=str(HERE / "build" / "app" / "attnbook"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--write", metavar="DIR", help="write the generated lessons into DIR")
    parser.add_argument("lessons", nargs="*")
    args = parser.parse_args()
    if args.write:
        megabyte_lesson(pathlib.Path(args.write) / "megabyte.md")
        flat_megabyte_lesson(pathlib.Path(args.write) / "flat-megabyte.md")
        return
    if "DISPLAY" not in os.environ:
        if not shutil.which("xvfb-run"):
            sys.exit("window_idle: needs xvfb-run (Debian package xvfb) and xdotool")
        os.execvp("xvfb-run", ["xvfb-run", "-a", "-s", "-screen 0 1600x1000x24",
                               sys.executable] + sys.argv)
    lessons = [pathlib.Path(p) for p in args.lessons]
    workdir = tempfile.TemporaryDirectory()
    if not lessons:
        big = pathlib.Path(workdir.name) / "megabyte.md"
        megabyte_lesson(big)
        flat = pathlib.Path(workdir.name) / "flat-megabyte.md"
        flat_megabyte_lesson(flat)
        lessons = [HERE / "documents" / "attention.md", HERE / "documents" / "transformers.md",
                   big, flat]
    print(f"{'lesson':<24} {'bytes':>9} {'shown s':>8} {'idle s':>7} {'cpu s':>6}")
    for lesson in lessons:
        for _ in range(args.repeat):
            shown, idle, busy = measure(args.binary, lesson)
            fmt = lambda v: f"{v:.2f}" if v is not None else "-"
            print(f"{lesson.name:<24} {lesson.stat().st_size:>9} {fmt(shown):>8} "
                  f"{fmt(idle):>7} {fmt(busy):>6}", flush=True)


if __name__ == "__main__":
    main()
