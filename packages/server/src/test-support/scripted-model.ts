// The server's tests use core's scripted model (one implementation for every package's turn tests).
export { scriptedModel, textStep, toolStep } from '@chatwire/core/testing';
export type { Script, ScriptedModel } from '@chatwire/core/testing';
