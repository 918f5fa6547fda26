const nxPreset = require('@nx/jest/preset').default;
const { readFileSync } = require('fs');
const { join } = require('path');

// One SWC configuration for every project: legacy decorators with metadata, as NestJS and TypeORM need.
const swcConfig = JSON.parse(readFileSync(join(__dirname, '.swcrc'), 'utf-8'));
delete swcConfig.$schema;

module.exports = {
  ...nxPreset,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swcConfig, swcrc: false }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
};
