import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  errorCatalogue,
  isRetryableErrorType,
  localErrorCatalogue,
  wireErrorCatalogue,
} from '../../src/protocol/error-types';
import { CadreError } from '../../src/errors';
import { StoreUnavailableError } from '../../src/store/store-errors';

const root = join(__dirname, '..', '..');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the error catalogue', () => {
  it('is the table of docs/errors.md, type by type, with the same retryability', () => {
    const page = readFileSync(join(root, 'docs', 'errors.md'), 'utf8');
    const rows = [...page.matchAll(/^\| `(\w+)` +\|[^|]+\| (yes|no) +\|/gm)].map(([, type, retryable]) => [
      type,
      retryable === 'yes',
    ]);
    expect(rows).toEqual(Object.entries(errorCatalogue).map(([type, entry]) => [type, entry.retryable]));
  });

  it('names every error type a failure in src/ is created with', () => {
    const created = sourceFiles(join(root, 'src')).flatMap((file) =>
      [
        ...readFileSync(file, 'utf8').matchAll(
          /(?:new CadreError\(\s*|agentFailure\(\s*|super\(\s*|type: |ApplicationFailure\.\w+\([^;]*?,\s*)'([A-Z]\w+)'/g,
        ),
      ].map(([, type]) => type),
    );
    expect(created.length).toBeGreaterThan(20);
    expect(created.filter((type) => !Object.hasOwn(errorCatalogue, type ?? ''))).toEqual([]);
  });

  it('lists every type once, as a type a run answers with or as one raised in the process', () => {
    const wire = Object.keys(wireErrorCatalogue);
    const local = Object.keys(localErrorCatalogue);
    expect(wire.filter((type) => local.includes(type))).toEqual([]);
    expect(Object.keys(errorCatalogue)).toEqual([...wire, ...local]);
  });

  it('carries the run, approval, tool call and agent it concerns, and no field it was not given', () => {
    const error = new CadreError('UnknownApproval', 'Unknown approval id', { workflowId: 'run-1', approvalId: 'a-1' });
    expect(error).toMatchObject({ type: 'UnknownApproval', workflowId: 'run-1', approvalId: 'a-1' });
    expect(Object.keys(error)).toEqual(['type', 'name', 'workflowId', 'approvalId']);
  });

  it('says whether a CadreError may succeed when tried again', () => {
    expect(new StoreUnavailableError('sqlite:x.db', new Error('locked')).retryable).toBe(true);
    expect(new CadreError('ProviderRequestRejected', 'bad model id').retryable).toBe(false);
    expect(isRetryableErrorType('NotACadreType')).toBe(false);
  });
});
