import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildServer, ClusterError } from '../../scripts/cluster/cluster-build';
import { clusterUp, runningClusterAddress } from '../../scripts/cluster/cluster';
import { findFreePort } from '../../src/server/free-port';

// With a cluster up in this checkout (`npm run test:cluster -- test/`), `up` refuses before anything else.
const describeWithoutCluster = runningClusterAddress() ? describe.skip : describe;

describeWithoutCluster('npm run cluster -- up, given what it cannot use', () => {
  it('refuses a port already in use, naming it and the variables that move the cluster, and starts nothing', async () => {
    const frontend = await findFreePort();
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(frontend, '127.0.0.1', resolve));
    try {
      const postgres = await findFreePort();
      const up = clusterUp({ CADRE_CLUSTER_PORT: String(frontend), CADRE_CLUSTER_PG_PORT: String(postgres) });
      await expect(up).rejects.toBeInstanceOf(ClusterError);
      // Another test's server may hold one of the ports next to it too: each one taken is named.
      await expect(up).rejects.toThrow(new RegExp(`^Ports? (\\d+ \\(\\w+\\), )*${frontend} \\(frontend\\)`));
      await expect(up).rejects.toThrow('already in use. Stop what listens there');
      await expect(up).rejects.toThrow('CADRE_CLUSTER_PORT=<frontend port>');
      expect(runningClusterAddress()).toBeUndefined();
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});

describe('building the cluster without Go', () => {
  it('says Go is missing and what to install, before it writes anything', async () => {
    const bin = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-cluster-bin-')), 'bin');
    const savedPath = process.env.PATH;
    process.env.PATH = path.join(os.tmpdir(), 'no-go-here');
    try {
      await expect(buildServer(bin)).rejects.toThrow(
        'Go is not on PATH: the cluster builds Temporal from the Go module proxy. Install Go 1.22 or newer.',
      );
      expect(fs.existsSync(bin)).toBe(false);
    } finally {
      process.env.PATH = savedPath;
    }
  });
});
