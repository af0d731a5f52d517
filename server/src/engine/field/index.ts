export * from './errors';
export * from './path';
