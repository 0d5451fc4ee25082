// Test-data factories, reused by the demo-data generator: one insert function per entity, plus buildWorld.
// Each takes the database or transaction handle (Executor) and overrides; missing parents are created,
// ids come from a deterministic counter (resetFactoryIds) unless given.
export * from './factories/core.ts';
export * from './factories/master.ts';
export * from './factories/running-cost.ts';
export * from './factories/rent.ts';
export * from './factories/projects.ts';
export * from './factories/world.ts';
