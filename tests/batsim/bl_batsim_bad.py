#!/usr/bin/env python3
"""bl_batsim_bad.py -- a Batsim scheduler that breaks one rule of the
protocol on purpose, for tests/test_pol_batsim.c: batchlab must stop the
run with a message naming the reply, the event and the rule.

Until its moment comes it schedules FCFS (bl_batsim_sched.py). The modes:

  two_jobs_one_host  one reply gives resource 0 to two jobs
  busy_host          a job is executed on a resource a running job holds
  too_many           a job asking for 1 resource gets "0-1"
  bad_alloc          an allocation that is no interval set ("0-x")
  unknown_job        EXECUTE_JOB of a job never submitted (w0!999)
  finished_job       EXECUTE_JOB of a job that has completed
  past               an event stamped before the request's now
  bad_json           a reply that is not JSON
  no_events          a reply without its "events" array
  answer             an ANSWER no QUERY asked for (out of protocol order)
  events_at_end      events in the answer to SIMULATION_ENDS (out of order)
  call_past          CALL_ME_LATER at a time already passed
  kill_waiting       KILL_JOB of a job still waiting
  reject_running     REJECT_JOB of a running job
  reject_kill        no rule broken: the known answers of REJECT_JOB and
                     KILL_JOB (job 1 on resource 0 at 0, job 2 rejected,
                     job 1 killed at 3, its JOB_KILLED checked: progress
                     0.3; job 3 at 5 on resource 0)
  energy             no rule broken: FCFS, with QUERY consumed_energy in
                     every reply to a request that is no ANSWER; each
                     ANSWER is checked against the energy worked out by
                     hand for platforms/test/power-3x4.xml (energy_at);
                     exits 7 (before replying) on a wrong or missing one
  query_other        a QUERY of a request batchlab does not answer
  die                exits with status 3 at the first job
  hang               stops answering at the first job

Usage: bl_batsim_bad.py --mode MODE --socket ENDPOINT
The workload the tests give it: jobs 1 and 2 at 0 (1 host, 10 s), job 3 at
5 (1 host), on 4 hosts.
"""
import argparse
import json
import os
import sys
import time

import zmq

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bl_batsim_sched import Scheduler  # noqa: E402


def execute(now, job_id, alloc):
    return {"timestamp": now, "type": "EXECUTE_JOB",
            "data": {"job_id": job_id, "alloc": alloc}}


def reject_kill(msg, types, submitted):
    now = msg["now"]
    if submitted == ["w0!1", "w0!2"]:
        return [execute(now, "w0!1", "0"),
                {"timestamp": now, "type": "REJECT_JOB", "data": {"job_id": "w0!2"}},
                {"timestamp": now, "type": "CALL_ME_LATER", "data": {"timestamp": 3}}]
    if "REQUESTED_CALL" in types:
        return [{"timestamp": now, "type": "KILL_JOB", "data": {"job_ids": ["w0!1"]}}]
    for e in msg["events"]:
        if e["type"] == "JOB_KILLED":
            progress = e["data"]["job_progress"]["w0!1"]
            if e["data"]["job_ids"] != ["w0!1"] or now != 3 or \
                    abs(progress["progress"] - 0.3) > 1e-12 or progress["profile"] != "delay_10":
                sys.exit(5)
        if e["type"] == "JOB_COMPLETED" and e["data"]["job_id"] == "w0!1":
            sys.exit(6)  # a killed job is acknowledged by JOB_KILLED only
    if "w0!3" in submitted:
        return [execute(now, "w0!3", "0")]
    return []


def energy_at(t):
    """The workload below under FCFS on power-3x4.xml (node allocation,
    pstate 1: n1, n2 150 W busy, 90 W idle; n3 130 W busy, 70 W idle):
    jobs 1 and 2 hold n1 and n2 over [0, 10], job 3 holds n3 over [5, 10].
    [0, 5]: 150 + 150 + 70 = 370 W; [5, 10]: 150 + 150 + 130 = 430 W."""
    return 370.0 * t if t <= 5 else 370.0 * 5 + 430.0 * (t - 5)


def check_energy(msg, seen):
    """Records and checks the ANSWERs of msg; exits 7 on a wrong one."""
    for e in msg["events"]:
        if e["type"] != "ANSWER":
            continue
        got = e["data"].get("consumed_energy")
        want = energy_at(msg["now"])
        if got is None or abs(got - want) > 1e-9 * max(1.0, want):
            sys.stderr.write("ANSWER at %g: consumed_energy %r, expected %r\n"
                             % (msg["now"], got, want))
            sys.exit(7)
        seen.setdefault("answers", []).append(msg["now"])


def query(now):
    return {"timestamp": now, "type": "QUERY", "data": {"requests": {"consumed_energy": {}}}}


def misbehave(mode, msg, sched, seen):
    """The reply's events (None: the normal FCFS answer)."""
    now = msg["now"]
    types = [e["type"] for e in msg["events"]]
    submitted = [e["data"]["job_id"] for e in msg["events"] if e["type"] == "JOB_SUBMITTED"]
    completed = [e["data"]["job_id"] for e in msg["events"] if e["type"] == "JOB_COMPLETED"]
    if "SIMULATION_ENDS" in types:
        if mode == "events_at_end":
            return [{"timestamp": now, "type": "CALL_ME_LATER",
                     "data": {"timestamp": now + 10}}]
        return None
    if mode == "reject_kill":
        return reject_kill(msg, types, submitted)
    if submitted and not seen.get("first"):
        seen["first"] = True
        if mode == "two_jobs_one_host":
            return [execute(now, submitted[0], "0"), execute(now, submitted[1], "0")]
        if mode == "too_many":
            return [execute(now, submitted[0], "0-1")]
        if mode == "bad_alloc":
            return [execute(now, submitted[0], "0-x")]
        if mode == "unknown_job":
            return [execute(now, "w0!999", "0")]
        if mode == "past":
            return [execute(now - 1, submitted[0], "0")]
        if mode == "answer":
            return [{"timestamp": now, "type": "ANSWER", "data": {"consumed_energy": 0}}]
        if mode == "kill_waiting":
            return [{"timestamp": now, "type": "KILL_JOB", "data": {"job_ids": [submitted[1]]}},
                    execute(now, submitted[0], "0")]
        if mode == "reject_running":
            return [execute(now, submitted[0], "0"),
                    {"timestamp": now, "type": "REJECT_JOB", "data": {"job_id": submitted[0]}}]
        if mode == "call_past":
            return [{"timestamp": now, "type": "CALL_ME_LATER",
                     "data": {"timestamp": now - 5}}]
        if mode == "query_other":
            return [{"timestamp": now, "type": "QUERY",
                     "data": {"requests": {"estimate_waiting_time": {}}}}]
        if mode == "die":
            sys.exit(3)
        if mode == "hang":
            while True:
                time.sleep(1)
    if mode == "busy_host" and "w0!3" in submitted:
        # job 1 holds resource 0 until 10
        sched.queue = [j for j in sched.queue if j["id"] != "w0!3"]
        return [execute(now, "w0!3", "0")]
    if mode == "finished_job" and completed:
        return [execute(now, completed[0], "3")]
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", required=True)
    ap.add_argument("--socket", required=True)
    args = ap.parse_args()
    ctx = zmq.Context()
    sock = ctx.socket(zmq.REP)
    sock.bind(args.socket)
    sched = Scheduler("fcfs")
    seen = {}
    while True:
        msg = json.loads(sock.recv())
        if args.mode == "bad_json" and any(e["type"] == "JOB_SUBMITTED" for e in msg["events"]):
            sock.send_string('{"now": 0, "events": [')
            continue
        if args.mode == "no_events" and any(e["type"] == "JOB_SUBMITTED" for e in msg["events"]):
            sock.send_string(json.dumps({"now": msg["now"]}))
            continue
        bad = misbehave(args.mode, msg, sched, seen)
        events = sched.handle(msg)
        if bad is not None:
            events = bad
        if args.mode == "energy":
            types = [e["type"] for e in msg["events"]]
            check_energy(msg, seen)
            if "SIMULATION_ENDS" in types:
                if sorted(set(seen.get("answers", []))) != [0, 5, 10]:
                    sys.stderr.write("answers at %r, expected at 0, 5 and 10\n"
                                     % seen.get("answers"))
                    sys.exit(7)
            elif "ANSWER" not in types:
                events = (events or []) + [query(msg["now"])]
        sock.send_string(json.dumps({"now": msg["now"], "events": events or []}))
        if events is None:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
