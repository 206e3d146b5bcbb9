import { asSchema, type FlexibleSchema, TypeValidationError } from 'ai';

/** What `validateWithSchema` found: the parsed value, or the AI SDK's validation error. */
export type SchemaValidation<T> = { success: true; value: T } | { success: false; error: TypeValidationError };

/**
 * Checks `value` against an AI SDK schema (Zod, Standard Schema or `jsonSchema`) through the
 * project's own `ai`, as `generateText` checks a tool's input: the result carries the parsed value,
 * or a `TypeValidationError` whose message says which field is wrong.
 */
export async function validateWithSchema<T>(value: unknown, schema: FlexibleSchema<T>): Promise<SchemaValidation<T>> {
  const actual = asSchema(schema);
  try {
    if (!actual.validate) return { success: true, value: value as T };
    const result = await actual.validate(value);
    return result.success
      ? { success: true, value: result.value }
      : { success: false, error: TypeValidationError.wrap({ value, cause: result.error }) };
  } catch (error) {
    return { success: false, error: TypeValidationError.wrap({ value, cause: error }) };
  }
}
