const nxPreset = require('@nx/jest/preset').default;
const { readFileSync } = require('fs');
const { join } = require('path');

// One SWC configuration for every project: legacy decorators with metadata, as NestJS and TypeORM need.
const swcConfig = JSON.parse(readFileSync(join(__dirname, '.swcrc'), 'utf-8'));
delete swcConfig.$schema;

module.exports = {
  ...nxPreset,
  testEnvironment: 'node',
  resolver: join(__dirname, 'tools/jest/resolver.js'),
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swcConfig, swcrc: false }], '^.+\\.(eta|css)$': join(__dirname, 'tools/jest/text-transform.js') },
  moduleFileExtensions: ['ts', 'js', 'json', 'eta', 'css'],
};
