import { isChatwireError } from '@chatwire/storage';
import { describe, expect, it } from 'vitest';
import { parseModelMap } from './parse-model-map.js';

function errorOf(text: string): Error {
  try {
    parseModelMap(text);
  } catch (error) {
    expect(isChatwireError(error, 'CONFIGURATION')).toBe(true);
    return error as Error;
  }
  throw new Error('expected a CONFIGURATION error');
}

describe('parseModelMap (CHATWIRE_MODEL_MAP)', () => {
  it('maps chatwire ids to vendor ids, trimming blanks and skipping empty entries', () => {
    expect(parseModelMap(' alpha-sonnet-4-6 = claude-sonnet-4-5 ,beta-5.4=gpt-5.4,')).toEqual({
      'alpha-sonnet-4-6': 'claude-sonnet-4-5',
      'beta-5.4': 'gpt-5.4',
    });
    expect(parseModelMap('gamma-oss-120b=accounts/fireworks/models/gpt-oss-120b')).toEqual({
      'gamma-oss-120b': 'accounts/fireworks/models/gpt-oss-120b',
    });
    expect(parseModelMap('')).toEqual({});
  });

  it.each([
    ['alpha-sonnet-4-6', "CHATWIRE_MODEL_MAP: entry 'alpha-sonnet-4-6' has no '='; expected chatwire-id=vendor-id"],
    ['a=b=c', "CHATWIRE_MODEL_MAP: entry 'a=b=c' has more than one '='; expected chatwire-id=vendor-id"],
    ['alpha-sonnet-4-6=', "CHATWIRE_MODEL_MAP: entry 'alpha-sonnet-4-6=' has an empty vendor id"],
    ['=claude-sonnet-4-5', "CHATWIRE_MODEL_MAP: entry '=claude-sonnet-4-5' has an empty chatwire id"],
    ['beta-5.4=gpt 5', "CHATWIRE_MODEL_MAP: entry 'beta-5.4=gpt 5' has a blank inside an id"],
    ['beta-5.4=gpt-5.4,beta-5.4=gpt-5.5', "CHATWIRE_MODEL_MAP: 'beta-5.4' is mapped twice"],
  ])('%s is a CONFIGURATION error naming the problem', (text, message) => {
    expect(errorOf(text).message).toBe(message);
  });
});
