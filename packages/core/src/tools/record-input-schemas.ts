import { z } from 'zod';

/** Zod pieces shared by the built-in tools' input schemas. Every field has a `.describe()` for the model. */

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export const collectionInput = z
  .string()
  .min(1)
  .max(100)
  .describe('Collection name exactly as returned by schema_list, for example "notes".');

export const recordIdInput = z
  .string()
  .min(1)
  .max(200)
  .describe('The recordId of the record, as returned by records_query or records_create.');

export const fieldNameInput = z
  .string()
  .regex(FIELD_NAME, 'a field name is letters, digits and underscores, starting with a letter or underscore')
  .describe('A data field name of the collection (see schema_describe).');

const scalarInput = z
  .union([z.string().max(10_000), z.number(), z.boolean(), z.null()])
  .describe('A value to compare with: string, number, boolean or null.');

const orderedInput = z.union([z.string().max(10_000), z.number()]);

const conditionInput = z
  .strictObject({
    eq: scalarInput.optional().describe('Field equals this value.'),
    ne: scalarInput.optional().describe('Field does not equal this value.'),
    gt: orderedInput.optional().describe('Field is greater than this number or string.'),
    gte: orderedInput.optional().describe('Field is greater than or equal to this number or string.'),
    lt: orderedInput.optional().describe('Field is less than this number or string.'),
    lte: orderedInput.optional().describe('Field is less than or equal to this number or string.'),
    in: z.array(scalarInput).min(1).max(100).optional().describe('Field equals one of these values (1 to 100 values).'),
    exists: z.boolean().optional().describe('true: the field is set; false: the field is missing.'),
  })
  .refine((condition) => Object.keys(condition).length > 0, 'a condition needs at least one operator')
  .describe('Operators on one field, all of which must hold: eq, ne, gt, gte, lt, lte, in, exists.');

export const filterInput = z
  .record(fieldNameInput, z.union([scalarInput, conditionInput]))
  .refine((filter) => Object.keys(filter).length <= 20, 'a filter has at most 20 fields')
  .describe(
    'Conditions on data fields, all of which must hold. A plain value means equals: {"status": "open"}. ' +
      'An object uses operators: {"priority": {"gte": 3}, "tag": {"in": ["a", "b"]}}. ' +
      'You only ever see your own records; leave the owner field out.',
  );

export const orderByInput = z
  .strictObject({
    field: z
      .string()
      .regex(FIELD_NAME, 'a field name is letters, digits and underscores, starting with a letter or underscore')
      .describe('"createdAt" or a data field name to sort by.'),
    direction: z.enum(['asc', 'desc']).optional().describe('"asc" (default) or "desc".'),
  })
  .describe('Sort order. Default: oldest first (createdAt ascending).');

export const fieldsInput = z
  .array(fieldNameInput)
  .min(1)
  .max(50)
  .describe('Only return these data fields of each record (smaller results). Default: all fields.');

export const dataInput = z
  .record(z.string().min(1).max(64), z.unknown())
  .describe('Field values keyed by field name, matching the columns from schema_describe.');

export const cursorInput = z
  .string()
  .min(1)
  .max(1_000)
  .describe('The nextCursor of a previous records_query call with the same collection, filter and orderBy, to get the next page.');
