import type { CollectionDefinition, ColumnDefinition } from '../collection-definition.js';
import type { RecordData } from '../record-envelope.js';
import { cloneJson, isPlainObject, jsonByteLength, jsonProblem } from '../json-value.js';
import { invalid } from './errors.js';
import { RECORD_ID_PATTERN, type StoreLimits } from './store-limits.js';

export function validateRecordId(collection: string, recordId: unknown): string {
  if (typeof recordId !== 'string' || !RECORD_ID_PATTERN.test(recordId)) {
    throw invalid(collection, 'recordId', `recordId must match ${RECORD_ID_PATTERN}`);
  }
  return recordId;
}

function typeProblem(column: ColumnDefinition, value: unknown): string | null {
  switch (column.type) {
    case 'string':
      return typeof value === 'string' ? null : 'must be a string';
    case 'number':
      return typeof value === 'number' ? null : 'must be a number';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be a boolean';
    case 'object':
      return isPlainObject(value) ? null : 'must be an object';
    case 'array':
      return Array.isArray(value) ? null : 'must be an array';
    case 'json':
      return null;
  }
}

function codePointLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!(c >= 0xdc00 && c <= 0xdfff && i > 0)) n++;
  }
  return n;
}

/**
 * Validates `data` (a full record on create, a patch on update) against the collection's columns and
 * returns a JSON copy without `undefined` properties. `null` clears an optional field.
 */
export function validateData(
  def: CollectionDefinition,
  data: unknown,
  mode: 'create' | 'patch',
  limits: StoreLimits,
): RecordData {
  const name = def.name;
  if (!isPlainObject(data)) throw invalid(name, undefined, `${mode === 'create' ? 'data' : 'patch'} must be an object`);
  const columns = new Map(def.columns.map((c) => [c.name, c]));
  for (const field of Object.keys(data)) {
    const value = data[field];
    if (value === undefined) continue;
    const column = columns.get(field);
    if (!column) throw invalid(name, field, `unknown field "${field}"`);
    if (value === null) {
      if (column.required) throw invalid(name, field, `required field "${field}" cannot be null`);
      continue;
    }
    const problem = typeProblem(column, value) ?? jsonProblem(value);
    if (problem) throw invalid(name, field, `field "${field}" ${problem.startsWith('must') ? problem : `is invalid: ${problem}`}`);
    if (jsonByteLength(value) > limits.maxValueBytes) {
      throw invalid(name, field, `field "${field}" is larger than ${limits.maxValueBytes} bytes`);
    }
    if (typeof value === 'string' && column.maxLength !== undefined && value.length > column.maxLength) {
      if (codePointLength(value) > column.maxLength) {
        throw invalid(name, field, `field "${field}" is longer than ${column.maxLength} characters`);
      }
    }
  }
  if (mode === 'create') {
    for (const column of def.columns) {
      const value = data[column.name];
      if (column.required && (value === undefined || value === null)) {
        throw invalid(name, column.name, `missing required field "${column.name}"`);
      }
    }
  }
  const copy = cloneJson(data);
  checkRecordSize(def, copy, limits);
  return copy;
}

export function checkRecordSize(def: CollectionDefinition, data: RecordData, limits: StoreLimits): void {
  if (jsonByteLength(data) > limits.maxRecordBytes) {
    throw invalid(def.name, undefined, `record is larger than ${limits.maxRecordBytes} bytes`);
  }
}
