import nx from '@nx/eslint-plugin';

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/dist', '**/node_modules', '**/tmp', 'data/**'] },
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:feature', 'type:util', 'type:data-access', 'type:testing'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:feature', 'type:util', 'type:data-access', 'type:testing'] },
            { sourceTag: 'type:feature', onlyDependOnLibsWithTags: ['type:feature', 'type:util', 'type:data-access', 'type:testing'] },
            { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: ['type:util', 'type:data-access'] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:util', 'type:data-access', 'type:feature'] },
            { sourceTag: 'scope:api', onlyDependOnLibsWithTags: ['*'] },
            { sourceTag: 'scope:tools', onlyDependOnLibsWithTags: ['scope:event', 'scope:venue', 'scope:organizer', 'scope:taxonomy', 'scope:records', 'scope:i18n', 'scope:shared'] },
            { sourceTag: 'scope:webhook', onlyDependOnLibsWithTags: ['scope:event', 'scope:venue', 'scope:organizer', 'scope:taxonomy', 'scope:records', 'scope:i18n', 'scope:shared'] },
            { sourceTag: 'scope:web', onlyDependOnLibsWithTags: ['scope:event', 'scope:venue', 'scope:organizer', 'scope:taxonomy', 'scope:records', 'scope:i18n', 'scope:shared'] },
            { sourceTag: 'scope:event', onlyDependOnLibsWithTags: ['scope:event', 'scope:venue', 'scope:organizer', 'scope:taxonomy', 'scope:records', 'scope:i18n', 'scope:shared'] },
            { sourceTag: 'scope:venue', onlyDependOnLibsWithTags: ['scope:venue', 'scope:records', 'scope:i18n', 'scope:shared'] },
            { sourceTag: 'scope:organizer', onlyDependOnLibsWithTags: ['scope:organizer', 'scope:records', 'scope:i18n', 'scope:shared'] },
            { sourceTag: 'scope:records', onlyDependOnLibsWithTags: ['scope:records', 'scope:i18n', 'scope:shared'] },
            { sourceTag: 'scope:taxonomy', onlyDependOnLibsWithTags: ['scope:taxonomy', 'scope:i18n', 'scope:shared'] },
            { sourceTag: 'scope:i18n', onlyDependOnLibsWithTags: ['scope:i18n', 'scope:shared'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
];
