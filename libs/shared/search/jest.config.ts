export default {
  displayName: 'shared-search',
  preset: '../../../jest.preset.js',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
