import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

/**
 * The JSON Schema validators of every turn's MCP clients in this process, each distinct schema compiled once
 * (by its JSON text; at most `maxSchemas`, the oldest dropped first). Without it, each turn's `Client` builds
 * its own Ajv (about 0.5 ms) and compiles every listed tool's output schema again (milliseconds each).
 */
export class OutputSchemaValidators implements jsonSchemaValidator {
  private readonly ajv = new AjvJsonSchemaValidator();
  private readonly compiled = new Map<string, JsonSchemaValidator<unknown>>();
  /** The same schema object (a cached tool list's) finds its validator without serializing it again. */
  private readonly bySchema = new WeakMap<object, JsonSchemaValidator<unknown>>();

  constructor(private readonly maxSchemas = 500) {}

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let validator = this.bySchema.get(schema);
    if (validator === undefined) {
      const key = JSON.stringify(schema);
      validator = this.compiled.get(key);
      if (validator === undefined) {
        validator = this.ajv.getValidator<unknown>(schema);
        this.compiled.set(key, validator);
        if (this.compiled.size > this.maxSchemas) this.compiled.delete(this.compiled.keys().next().value!);
      }
      this.bySchema.set(schema, validator);
    }
    return validator as JsonSchemaValidator<T>;
  }
}

/**
 * Checks a `tools/call` result against the tool's output schema as the SDK's client does after it listed the
 * tools itself (a turn whose list came from chatwire's cache did not list them): a result that is not an
 * error must have `structuredContent`, and it must match. Throws the SDK's message when it does not.
 */
export function checkStructuredContent(callResult: unknown, validate: JsonSchemaValidator<unknown>, tool: string): void {
  const result = callResult as { structuredContent?: unknown; isError?: unknown };
  if (result.isError === true) return;
  if (result.structuredContent === undefined) throw new Error(`Tool ${tool} has an output schema but did not return structured content`);
  const checked = validate(result.structuredContent);
  if (!checked.valid) throw new Error(`Structured content does not match the tool's output schema: ${checked.errorMessage}`);
}
