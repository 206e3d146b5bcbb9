import type pg from 'pg';
import { pgPackage } from './pg-package';
import { liveChannel, type LiveListener } from './live-deltas';

/**
 * One dedicated PostgreSQL connection that LISTENs on the live-delta channel, opened on the
 * first wait. Its socket is unref'd, so a CLI that only reads never stays alive for it.
 */
export class PostgresLiveListener implements LiveListener {
  private readonly callbacks: Array<() => void> = [];
  private connecting?: Promise<boolean>;
  private client?: pg.Client;

  constructor(private readonly connectionString: string) {}

  onNotify(callback: () => void): void {
    this.callbacks.push(callback);
  }

  ready(): Promise<boolean> {
    this.connecting ??= this.listen();
    return this.connecting;
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<boolean> {
    const client = new (pgPackage().Client)({ connectionString: this.connectionString });
    // A lost listening connection makes readers poll again (see ready), never fails them.
    client.on('error', () => {
      this.connecting = Promise.resolve(false);
    });
    try {
      await client.connect();
      (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
      client.on('notification', () => {
        for (const callback of this.callbacks) callback();
      });
      await client.query(`LISTEN ${liveChannel}`);
      this.client = client;
      return true;
    } catch {
      await client.end().catch(() => undefined);
      return false;
    }
  }
}
