#!/usr/bin/env python3
"""Replays the file reads and searches of recorded mini-SWE-agent trajectories,
widened, over a real source tree, to make long outputs whose next action is the
agent's own.

For each call of a trajectory on the tree's project that read part of a file
(cat, nl, sed -n, head, tail, often piped into grep or head) or searched
(grep), the widened call reads the whole file (`nl -ba F` when the agent saw
line numbers, else `cat F`) or searches the parent directory of what it
searched (`grep -rn …`). The program really runs on the tree; the output keeps
what it prints, with the tree's path written as /testbed. The row keeps the
agent's task and its next action as recorded; the message that issued the call
(`previous_action`, the intent's second part) is the recorded one with the
original command replaced by the widened one, and the agent's next actions
before it (`earlier_actions`, the intent's middle part: their last 8,000
characters or more, whole actions) as recorded. Only outputs over 8,000
characters are kept, at most 8 per trajectory.

Django's own test runs (tests/runtests.py …) are run too, verbose (-v 2) and
whole, with the system's Python 3 (python3-asgiref, python3-sqlparse and
python3-tz from Debian) and the tree's package first on the path.

usage: replay_commands.py CORPUS.jsonl.gz TREE PROJECT_PREFIX TREE_NAME > out.jsonl
       replay_commands.py --add-earlier CORPUS.jsonl.gz REPLAYED.jsonl.gz > out.jsonl
(the second adds `earlier_actions` to rows replayed before it existed)
"""
import gzip
import json
import os
import shlex
import subprocess
import sys

SHIMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "shims")
MIN_CHARS = 8000
MAX_CHARS = 2_000_000
MAX_PER_TRAJECTORY = 8
READERS = {"cat", "nl", "sed", "head", "tail"}
ARG_FLAGS = {"-A", "-B", "-C", "-m", "-e", "-f"}
EARLIER_CHARS = 8000


def strip_cd(command):
    command = command.strip()
    for prefix in ("cd /testbed && ", "cd /testbed; "):
        if command.startswith(prefix):
            return prefix, command[len(prefix):]
    return "", command


def widen_test_run(command):
    """Django's own test runner, verbose and whole (a `| tail`/`| head` and `2>&1` dropped), or None."""
    first = command.split("|")[0].replace("2>&1", "").strip()
    if "runtests.py" not in first or any(token in first for token in ("<<", ">", ";", "&&", "$(", "`", "\n")):
        return None
    words = first.split()
    if words[0] != "python" and not words[0].startswith("DJANGO_SETTINGS_MODULE="):
        return None
    if not any(word.startswith("-v") or word.startswith("--verbosity") for word in words):
        words.append("-v 2")
    return " ".join(words), "runtests"


def widen(command):
    """The widened command for a simple read or search, or None."""
    test_run = widen_test_run(command)
    if test_run is not None:
        return test_run
    if any(token in command for token in ("<<", ">", ";", "&&", "$(", "`", "||", "\n")):
        return None
    first = command.split("|")[0].strip()
    try:
        words = shlex.split(first)
    except ValueError:
        return None
    if not words:
        return None
    program = words[0]
    numbered = program == "nl" or "-n" in command.split() or "cat -n" in command
    if program in READERS:
        files = [word for word in words[1:] if not word.startswith("-") and "/" in word or word.endswith(".py")]
        files = [word for word in files if not word.endswith("p") or "." in word]
        if len(files) != 1:
            return None
        path = files[0]
        return ("nl -ba " if numbered else "cat ") + shlex.quote(path), path
    if program == "grep":
        flags, rest, index = [], [], 1
        while index < len(words):
            word = words[index]
            if word in ARG_FLAGS and index + 1 < len(words):
                flags += [word, words[index + 1]]
                index += 2
                continue
            (flags if word.startswith("-") else rest).append(word)
            index += 1
        if len(rest) < 2:
            return None
        pattern, paths = rest[0], rest[1:]
        # A search of the whole machine (`/`) or of a place outside the project reads more than its tree.
        if any(path.startswith("/") and not path.startswith("/testbed") for path in paths):
            return None
        parent = os.path.dirname(paths[0].rstrip("/")) or "."
        if "-r" not in flags and "-R" not in flags and not any(f.startswith("-") and "r" in f and not f.startswith("--") for f in flags):
            flags.insert(0, "-r")
        if not any(f == "-n" or (f.startswith("-") and not f.startswith("--") and "n" in f) for f in flags):
            flags.insert(0, "-n")
        return " ".join(["grep", *[shlex.quote(f) for f in flags], shlex.quote(pattern), shlex.quote(parent)]), parent
    return None


def run(command, tree):
    try:
        # `python` is the system's Python 3 with the tree's own package first on its path (for test runs).
        done = subprocess.run(["bash", "-c", command.replace("/testbed", tree)], cwd=tree, capture_output=True, timeout=120, env={"PATH": f"{SHIMS}:/usr/bin:/bin", "LC_ALL": "C", "PYTHONPATH": tree})
    except subprocess.TimeoutExpired:
        return None, None
    output = (done.stdout + done.stderr).decode("utf-8", "replace")
    return output.replace(tree, "/testbed"), done.returncode


def earlier_actions(rows, index):
    """The next actions of rows[:index - 1] (those before the one that issued
    rows[index]), oldest first: the last ones, whole, until EARLIER_CHARS are
    reached."""
    kept, chars = [], 0
    for row in reversed(rows[:max(0, index - 1)]):
        if chars >= EARLIER_CHARS:
            break
        kept.append(row["next_action"])
        chars += len(row["next_action"])
    return kept[::-1]


def read_trajectories(corpus, project):
    trajectories = {}
    with gzip.open(corpus, "rt") as lines:
        for line in lines:
            row = json.loads(line)
            if project in row["trajectory_id"]:
                trajectories.setdefault(row["trajectory_id"], []).append(row)
    return {key: sorted(rows, key=lambda row: row["step"]) for key, rows in trajectories.items()}


def add_earlier(corpus, replayed):
    trajectories = read_trajectories(corpus, "")
    with gzip.open(replayed, "rt") as lines:
        for line in lines:
            row = json.loads(line)
            source = row["replayed_from"]
            rows = trajectories[source["trajectory_id"]]
            index = next(i for i, recorded in enumerate(rows) if recorded["step"] == source["step"])
            row["earlier_actions"] = earlier_actions(rows, index)
            print(json.dumps(row))


def main():
    if sys.argv[1] == "--add-earlier":
        add_earlier(*sys.argv[2:4])
        return
    corpus, tree, project, tree_name = sys.argv[1:5]
    tree = os.path.abspath(tree)
    trajectories = read_trajectories(corpus, project)
    for trajectory_id in sorted(trajectories):
        rows = trajectories[trajectory_id]
        kept, seen = 0, set()
        for index in range(1, len(rows)):
            row = rows[index]
            args = row.get("args")
            command = args.get("command") if isinstance(args, dict) else None
            if not isinstance(command, str) or kept >= MAX_PER_TRAJECTORY:
                continue
            prefix, body = strip_cd(command)
            widened = widen(body)
            if widened is None or widened[0] in seen:
                continue
            previous = rows[index - 1]["next_action"]
            if command not in previous and body not in previous:
                continue
            output, code = run(widened[0], tree)
            if output is None or not MIN_CHARS < len(output) <= MAX_CHARS:
                continue
            seen.add(widened[0])
            kept += 1
            full = prefix + widened[0]
            issued = previous.replace(command, full) if command in previous else previous.replace(body, widened[0])
            print(json.dumps({
                "source": row.get("source"),
                "trajectory_id": f"{trajectory_id}#replay:{row['step']}",
                "step": 1,
                "task": row.get("task", ""),
                "tool": "bash",
                "args": {"command": full},
                "output": output,
                "exit_code": code,
                "previous_action": issued,
                "earlier_actions": earlier_actions(rows, index),
                "next_action": row["next_action"],
                "agent_system": "mini-swe-agent/replayed",
                "model": row.get("model"),
                "tool_detail": widened[0].split()[0],
                "output_complete": True,
                "replayed_from": {"trajectory_id": trajectory_id, "step": row["step"], "command": command, "tree": tree_name},
            }))


if __name__ == "__main__":
    main()
