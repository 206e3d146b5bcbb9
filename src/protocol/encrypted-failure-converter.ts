import {
  DefaultFailureConverter,
  type FailureConverter,
  type PayloadConverter,
  type ProtoFailure,
  type SerializationContext,
} from '@temporalio/common';

/**
 * Errors whose message names key ids only, never content, and must stay readable where the keys
 * are missing: an operator reading the failed workflow task has to learn which key to add.
 */
const keyErrorNames = new Set(['PayloadDecryptionError']);

const encoding = new DefaultFailureConverter({ encodeCommonAttributes: true });
const plain = new DefaultFailureConverter();

/**
 * The failure converter of encrypted deployments: messages and stack traces move into the
 * failure's encoded attributes, a payload the codec encrypts. It is loaded inside the workflow
 * sandbox too (the worker bundles it by path), so it imports no Node built-in.
 */
export const failureConverter: FailureConverter = {
  errorToFailure(error: unknown, payloadConverter: PayloadConverter, context?: SerializationContext): ProtoFailure {
    const name = (error as { name?: unknown } | undefined)?.name;
    return (typeof name === 'string' && keyErrorNames.has(name) ? plain : encoding).errorToFailure(
      error,
      payloadConverter,
      context,
    );
  },
  failureToError(failure: ProtoFailure, payloadConverter: PayloadConverter, context?: SerializationContext): Error {
    return encoding.failureToError(failure, payloadConverter, context);
  },
};
