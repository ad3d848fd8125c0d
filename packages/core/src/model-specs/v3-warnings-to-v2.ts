import type { LanguageModelV2CallWarning } from '@ai-sdk/provider';
import type { SharedV3Warning } from 'provider-v6';
import type { SharedV4Warning } from 'provider-v7';

/** `v3`/`v4` call warnings as `v2` warnings: each an `other` warning whose message says what the provider said. */
export function v3WarningsToV2(warnings: ReadonlyArray<SharedV3Warning | SharedV4Warning> | undefined): LanguageModelV2CallWarning[] {
  return (warnings ?? []).map((warning): LanguageModelV2CallWarning => {
    switch (warning.type) {
      case 'unsupported':
        return { type: 'other', message: `unsupported: ${warning.feature}${warning.details ? ` (${warning.details})` : ''}` };
      case 'compatibility':
        return { type: 'other', message: `compatibility mode: ${warning.feature}${warning.details ? ` (${warning.details})` : ''}` };
      case 'deprecated':
        return { type: 'other', message: `deprecated: ${warning.setting} (${warning.message})` };
      case 'other':
        return { type: 'other', message: warning.message };
      default:
        return { type: 'other', message: `warning: ${JSON.stringify(warning).slice(0, 200)}` };
    }
  });
}
