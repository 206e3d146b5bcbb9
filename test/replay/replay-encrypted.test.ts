import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Payload } from '@temporalio/common';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { encryptedDataConverter, encryptedFailureConverterPath } from '../../src/codec/data-converter';
import { EncryptionCodec } from '../../src/codec/encryption-codec';
import { agentBundlerOptions, agentWorkflowsPath } from '../../src/worker/workflow-bundle-options';

const directory = join(__dirname, 'histories');
const histories = readdirSync(directory).filter((file) => file.endsWith('.json'));
const keys = `replay:${randomBytes(32).toString('base64')}`;
const codec = new EncryptionCodec(keys);

type JsonPayload = { metadata?: Record<string, string>; data?: string };

/**
 * Encrypts, in place, every payload of a history in its JSON form that a codec encrypts in a run:
 * all but search attributes, headers, patch markers and local activity markers' own data, which
 * the SDK's core writes itself.
 */
async function encryptPayloads(value: unknown): Promise<number> {
  if (!value || typeof value !== 'object') return 0;
  if (Array.isArray(value)) {
    let count = 0;
    for (const each of value) count += await encryptPayloads(each);
    return count;
  }
  const record = value as Record<string, unknown>;
  const marker = record.markerRecordedEventAttributes as
    { markerName?: string; details?: Record<string, unknown> } | undefined;
  if (marker?.markerName === 'core_patch') return 0;
  // A local activity's marker: its result is a payload like any other; its `data` is the core's own.
  if (marker?.markerName === 'core_local_activity') return await encryptPayloads(marker.details?.result);
  if (
    record.metadata &&
    typeof record.metadata === 'object' &&
    typeof (record.metadata as JsonPayload['metadata'])?.encoding === 'string'
  ) {
    const json = record as JsonPayload;
    const payload: Payload = {
      metadata: Object.fromEntries(
        Object.entries(json.metadata ?? {}).map(([name, text]) => [name, new Uint8Array(Buffer.from(text, 'base64'))]),
      ),
      data: new Uint8Array(Buffer.from(json.data ?? '', 'base64')),
    };
    const [encrypted] = await codec.encode([payload]);
    json.metadata = Object.fromEntries(
      Object.entries(encrypted!.metadata!).map(([name, bytes]) => [name, Buffer.from(bytes!).toString('base64')]),
    );
    json.data = Buffer.from(encrypted!.data!).toString('base64');
    return 1;
  }
  let count = 0;
  for (const [name, child] of Object.entries(record)) {
    if (name === 'searchAttributes' || name === 'header') continue;
    count += await encryptPayloads(child);
  }
  return count;
}

describe('replaying the recorded v1 histories encrypted', () => {
  it('replays an encrypted copy of every history with the codec, without a nondeterminism error', async () => {
    const bundle = await bundleWorkflowCode({
      workflowsPath: agentWorkflowsPath,
      ...agentBundlerOptions(),
      failureConverterPath: encryptedFailureConverterPath,
    });
    const encrypted = await Promise.all(
      histories.map(async (file) => {
        const history = JSON.parse(readFileSync(join(directory, file), 'utf8')) as unknown;
        expect(await encryptPayloads(history)).toBeGreaterThan(0);
        return { workflowId: file.replace(/\.json$/, ''), history };
      }),
    );
    const failed: string[] = [];
    let replayed = 0;
    for await (const result of Worker.runReplayHistories(
      { workflowBundle: { code: bundle.code }, dataConverter: encryptedDataConverter(keys) },
      encrypted,
    )) {
      replayed++;
      if (result.error) failed.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failed).toEqual([]);
    expect(replayed).toBe(histories.length);
    // The copies are really encrypted: without the codec the first one cannot be read.
    await expect(
      Worker.runReplayHistory(
        { workflowBundle: { code: bundle.code } },
        encrypted[0]!.history,
        encrypted[0]!.workflowId,
      ),
    ).rejects.toThrow(/Replay failed due workflow task failure/);
  });
});
