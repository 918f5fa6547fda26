export default {
  displayName: 'shared-config',
  preset: '../../../jest.preset.js',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
