#!/usr/bin/env python3
"""bl_batsim_sched.py -- FCFS and EASY backfilling as a scheduler for
Batsim's protocol (version 4: JSON over a ZeroMQ REP socket), written the
way a Batsim user writes one, to run against batchlab's bridge
(--policy batsim).

It takes the same decisions as batchlab's built-in policies fcfs and easy
(policies/pol_fcfs.c, pol_easy.c, pol_shadow.c), so that the two runs'
jobs.csv are equal byte for byte:

  * the queue is the order of JOB_SUBMITTED events;
  * FCFS: start jobs from the head while they fit, stop at the first that
    does not;
  * EASY (Lifka 1995; Mu'alem & Feitelson 2001): then the blocked head's
    shadow time is the first planned end (start + walltime; an overdue one
    counts as now) at which enough resources are free, counting every end
    at that time; the extra resources are those free then beyond the
    head's need; a later job starts now if it fits and ends by the shadow
    time, or uses no more than the extra resources (which it then uses up);
  * a job gets the lowest-numbered free resources, as batchlab's engine
    picks the lowest-named free hosts;
  * a resource is not free while it is down (NOTIFY machine_unavailable,
    until machine_available), as the engine's free units leave down hosts
    out.

Usage: bl_batsim_sched.py --policy fcfs|easy [--socket ENDPOINT]
"""
import argparse
import json
import sys

import zmq


def iset_format(ids):
    """Sorted ids as Batsim's interval-set string: "0-3 7"."""
    parts, i = [], 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        parts.append(str(ids[i]) if i == j else "%d-%d" % (ids[i], ids[j]))
        i = j + 1
    return " ".join(parts)


def iset_parse(text):
    ids = []
    for part in text.split():
        a, _, b = part.partition("-")
        ids.extend(range(int(a), int(b or a) + 1))
    return ids


class Scheduler:
    def __init__(self, policy):
        self.policy = policy
        self.free = []  # per resource: True when no job holds it
        self.up = []  # per resource: False while it is down (NOTIFY)
        self.queue = []  # waiting jobs, in submission order
        self.running = {}  # job id -> (planned end, resources)
        self.alloc = {}  # job id -> its resource ids

    def begin(self, data):
        self.free = [True] * data["nb_compute_resources"]
        self.up = [True] * data["nb_compute_resources"]

    def n_free(self):
        return sum(f and u for f, u in zip(self.free, self.up))

    def take(self, res):
        ids = [i for i, f in enumerate(self.free) if f and self.up[i]][:res]
        for i in ids:
            self.free[i] = False
        return ids

    def start(self, now, job, out):
        ids = self.take(job["res"])
        self.running[job["id"]] = (now + job["walltime"], job["res"])
        self.alloc[job["id"]] = ids
        out.append({"timestamp": now, "type": "EXECUTE_JOB",
                    "data": {"job_id": job["id"], "alloc": iset_format(ids)}})

    def shadow(self, now, free, need):
        """The blocked head's shadow time and the extra resources then."""
        ends = sorted((max(end, now), res) for end, res in self.running.values())
        acc, t, found = free, now, free >= need
        for end, res in ends:
            if found and end > t:
                break
            acc += res
            if not found and acc >= need:
                found, t = True, end
        if not found:
            return float("inf"), 0
        return t, acc - need

    def schedule(self, now):
        out = []
        free = self.n_free()
        while self.queue and self.queue[0]["res"] <= free:
            job = self.queue.pop(0)
            self.start(now, job, out)
            free -= job["res"]
        if self.policy == "fcfs" or not self.queue or free == 0:
            return out
        shadow, extra = self.shadow(now, free, self.queue[0]["res"])
        waiting = [self.queue[0]]
        for job in self.queue[1:]:
            if free == 0 or job["res"] > free:
                waiting.append(job)
                continue
            by_shadow = now + job["walltime"] <= shadow
            if not by_shadow and job["res"] > extra:
                waiting.append(job)
                continue
            self.start(now, job, out)
            free -= job["res"]
            if not by_shadow:
                extra -= job["res"]
        self.queue = waiting
        return out

    def handle(self, msg):
        """One request; returns the reply's events, or None at the end."""
        now = msg["now"]
        for ev in msg["events"]:
            kind, data = ev["type"], ev["data"]
            if kind == "SIMULATION_BEGINS":
                self.begin(data)
            elif kind == "SIMULATION_ENDS":
                return None
            elif kind == "JOB_SUBMITTED":
                self.queue.append(data["job"])
            elif kind == "JOB_COMPLETED":
                self.running.pop(data["job_id"], None)
                self.alloc.pop(data["job_id"], None)
                for i in iset_parse(data["alloc"]):
                    self.free[i] = True
            elif kind == "NOTIFY" and data["type"] in ("machine_unavailable", "machine_available"):
                for i in iset_parse(data["resources"]):
                    self.up[i] = data["type"] == "machine_available"
            elif kind == "JOB_KILLED":
                for job_id in data["job_ids"]:
                    self.running.pop(job_id, None)
                    for i in self.alloc.pop(job_id, []):
                        self.free[i] = True
        return self.schedule(now)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--policy", choices=["fcfs", "easy"], required=True)
    ap.add_argument("--socket", default="tcp://*:28000")
    args = ap.parse_args()
    ctx = zmq.Context()
    sock = ctx.socket(zmq.REP)
    sock.bind(args.socket)
    sched = Scheduler(args.policy)
    while True:
        msg = json.loads(sock.recv())
        events = sched.handle(msg)
        sock.send_string(json.dumps({"now": msg["now"], "events": events or []}))
        if events is None:
            break
    sock.close(linger=0)
    ctx.term()
    return 0


if __name__ == "__main__":
    sys.exit(main())
