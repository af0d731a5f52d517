/** "Did you mean": the engine's name similarity (engine/field/similar.ts), which CEL checks use too. */
export { closestNames, closestValue, editDistance } from '../engine/field/similar';
