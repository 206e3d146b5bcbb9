"""A Python client of Cadre's agents: starts a task run, decides what it asks for, prints the answer.

Uses the `temporalio` SDK and Temporal alone, as docs/protocol.md describes. With
CADRE_PAYLOAD_KEYS set (as on the workers), every payload it sends and reads goes through Cadre's
payload codec (cadre_codec.py beside it), so it drives encrypted runs too.

    python3 cadre_client.py AGENT "PROMPT" [--task-queue cadre] [--deny] [--by alice]

Connects with TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE / TEMPORAL_API_KEY / TEMPORAL_PROFILE.
Prints one line per decision (`approved lookup by alice`), then the run's stop reason and text;
a failed run exits with status 1 and its failure's type and message.
"""

import argparse
import asyncio
import dataclasses
import os
import sys
import uuid
from typing import Sequence

import temporalio.converter
from temporalio.api.common.v1 import Payload
from temporalio.client import Client, WorkflowFailureError
from temporalio.envconfig import ClientConfig

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cadre_codec import decode_payload, encode_payload, parse_keys  # noqa: E402


class CadreCodec(temporalio.converter.PayloadCodec):
    """Cadre's AES-256-GCM payload codec, keyed by CADRE_PAYLOAD_KEYS."""

    def __init__(self, keys: list[tuple[str, bytes]]) -> None:
        self.keys = keys

    async def encode(self, payloads: Sequence[Payload]) -> list[Payload]:
        return [Payload(**self._fields(encode_payload(self.keys, dict(p.metadata), p.data))) for p in payloads]

    async def decode(self, payloads: Sequence[Payload]) -> list[Payload]:
        return [Payload(**self._fields(decode_payload(self.keys, dict(p.metadata), p.data))) for p in payloads]

    @staticmethod
    def _fields(pair: tuple[dict[str, bytes], bytes]) -> dict:
        metadata, data = pair
        return {"metadata": metadata, "data": data}


def data_converter() -> temporalio.converter.DataConverter:
    """Temporal's default converter; with CADRE_PAYLOAD_KEYS set, Cadre's codec, and failures' messages encoded."""
    keys = os.environ.get("CADRE_PAYLOAD_KEYS")
    if not keys:
        return temporalio.converter.default()
    return dataclasses.replace(
        temporalio.converter.default(),
        payload_codec=CadreCodec(parse_keys(keys)),
        failure_converter_class=temporalio.converter.DefaultFailureConverterWithEncodedAttributes,
    )


async def pending_approvals(client: Client, workflow_id: str) -> list[dict]:
    """Pending approvals of a run and of its running subagents, each naming its workflow."""
    handle = client.get_workflow_handle(workflow_id)
    requests = await handle.query("pendingApprovals")
    for child in await handle.query("children"):
        if child["status"] == "running":
            requests += await pending_approvals(client, child["workflowId"])
    return requests


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agent")
    parser.add_argument("prompt")
    parser.add_argument("--task-queue", default=os.environ.get("CADRE_TASK_QUEUE", "cadre"))
    parser.add_argument("--deny", action="store_true", help="deny every request instead of approving it")
    parser.add_argument("--by", default="python-client", help="who decides, as recorded in the run")
    args = parser.parse_args()

    client = await Client.connect(**ClientConfig.load_client_connect_config(), data_converter=data_converter())
    run = await client.start_workflow(
        "agentWorkflow",
        {"agent": args.agent, "mode": "task", "prompt": args.prompt},
        id=f"{args.agent}-py-{uuid.uuid4().hex[:8]}",
        task_queue=args.task_queue,
    )
    print(f"started {run.id}", flush=True)
    result_task = asyncio.ensure_future(run.result())
    while not result_task.done():
        for request in await pending_approvals(client, run.id):
            decision = {"approvalId": request["approvalId"], "approved": not args.deny, "by": args.by}
            if "signature" in request:
                decision["signature"] = request["signature"]
            owner = client.get_workflow_handle(request["workflowId"])
            decided = await owner.execute_update("decideApproval", decision)
            print(f"{decided['status']} {decided['toolName']} by {args.by}", flush=True)
        await asyncio.wait({result_task}, timeout=0.5)
    try:
        result = result_task.result()
    except WorkflowFailureError as failure:
        cause = failure.cause
        kind = getattr(cause, "type", None) or type(cause).__name__
        print(f"run {run.id} failed ({kind}): {cause}", file=sys.stderr, flush=True)
        return 1
    print(f"stop reason: {result['stopReason']}")
    print(result["text"])
    return 0


if __name__ == "__main__":
    status = asyncio.run(main())
    sys.stdout.flush()
    sys.stderr.flush()
    # Everything is printed and the event loop has closed. The Temporal client's native threads can
    # outlive it and abort CPython's teardown ("PyGILState_Release", temporalio/sdk-python#300), so
    # a short-lived client process ends here, with its status, without that teardown.
    os._exit(status)
