export { createDemoModel, DEMO_MODEL_ID, DEMO_PROVIDER, type DemoModelOptions } from './create-demo-model.js';
export { planDemoReply, type DemoReply } from './plan-demo-reply.js';
