import { InterceptingCall, type Interceptor, type InterceptingListener, Metadata, status } from '@grpc/grpc-js';
import {
  type ConnectionOptions,
  type ConnectionPlugin,
  defaultGrpcRetryOptions,
  makeGrpcRetryInterceptor,
} from '@temporalio/client';

/** What an `InterceptingCall` wraps: the next call of the chain. */
type NextInterceptingCall = ConstructorParameters<typeof InterceptingCall>[0];

/**
 * A call the channel refused to create (it was closed): it reports `CANCELLED` with the channel's
 * reason as soon as it starts, and ignores everything sent to it.
 */
class RefusedCall implements NextInterceptingCall {
  constructor(private readonly reason: string) {}

  start(_metadata: Metadata, listener?: Partial<InterceptingListener>): void {
    const details = `${this.reason}: the Temporal connection was closed before this call (or its retry) could be sent`;
    setImmediate(() => {
      // Temporal's retry interceptor passes the last message on with the `next` it kept from
      // receiving one; a first attempt refused here received none, so it gets an empty one first.
      listener?.onReceiveMessage?.(undefined);
      listener?.onReceiveStatus?.({ code: status.CANCELLED, details, metadata: new Metadata() });
    });
  }
  cancelWithStatus(): void {}
  getPeer(): string {
    return '';
  }
  sendMessageWithContext(): void {}
  sendMessage(): void {}
  startRead(): void {}
  halfClose(): void {}
  getAuthContext(): null {
    return null;
  }
}

/**
 * Turns a call that can no longer be created into a `CANCELLED` failure of that call. Temporal's
 * gRPC retry interceptor retries from a timer; a connection closed while a retry waits makes the
 * channel throw inside that timer, which no caller can catch and which ends the process. Placed
 * after the retry interceptor, this hands the retry a call that fails instead, so the failure
 * reaches whoever awaited the call.
 */
export const refuseCallsAfterClose: Interceptor = (options, nextCall) => {
  try {
    return new InterceptingCall(nextCall(options));
  } catch (error) {
    return new InterceptingCall(new RefusedCall(error instanceof Error ? error.message : String(error)));
  }
};

/**
 * The gRPC interceptors for a Temporal `Connection` that Cadre opens: Temporal's default retries,
 * then {@link refuseCallsAfterClose}, so closing the connection never throws from a retry timer.
 * @example const connection = await Connection.connect({ address, interceptors: closableConnectionInterceptors() });
 */
export function closableConnectionInterceptors(): Interceptor[] {
  return [makeGrpcRetryInterceptor(defaultGrpcRetryOptions()), refuseCallsAfterClose];
}

/**
 * A connection plugin that adds {@link refuseCallsAfterClose} after the connection's interceptors
 * (Temporal's default retries when it names none), for connections Cadre does not open itself,
 * such as a `TestWorkflowEnvironment`'s.
 */
export const closableConnectionPlugin: ConnectionPlugin = {
  name: 'cadre-closable-connection',
  configureConnection(options: ConnectionOptions): ConnectionOptions {
    const interceptors = options.interceptors
      ? [...options.interceptors, refuseCallsAfterClose]
      : closableConnectionInterceptors();
    return { ...options, interceptors };
  },
};
