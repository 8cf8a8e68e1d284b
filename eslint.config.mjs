// `npm run lint` (part of `npm test`). A short rule set; each rule is here because it catches a mistake this code base
// can make, not for style (formatting is left to the editor: the code has one consistent hand already).
import js from '@eslint/js';
import lit from 'eslint-plugin-lit';
import wc from 'eslint-plugin-wc';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // test/frameworks and the example apps' sources are type-checked against the build's output (npm run
  // check:frameworks, check:apps), which lint runs before.
  { ignores: ['dist/', '.build/', 'node_modules/', '**/.wrangler/', 'coverage/', '**/*.d.ts', 'test/frameworks/',
    'demo/react-app/src/', 'demo/vue-app/src/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      // The parts' own projects (runtime types differ: Workers, DOM, Node), as `npm run typecheck` reads them.
      parserOptions: {
        project: ['worker/tsconfig.json', 'components/tsconfig.json', 'demo/sandbox/tsconfig.json', 'test/tsconfig.json',
          'test/faults/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A Worker cancels what it neither awaits nor hands to ctx.waitUntil, and an element's unhandled rejection is
      // an error nobody sees: every promise is awaited, returned, passed on or marked `void` on purpose.
      '@typescript-eslint/no-floating-promises': 'error',
      // `_name` marks a parameter an interface requires but this implementation does not read; `{ a, ...rest }` drops `a`.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none',
        ignoreRestSiblings: true }],
      // `==` only for the deliberate `x == null`.
      eqeqeq: ['error', 'smart'],
      // The guards match control characters on purpose, to refuse them (paths, ids, headers, query values).
      'no-control-regex': 'off',
    },
  },
  {
    // Tests read JSON bodies and reach into internals; typing each probe would add noise, not safety.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['components/**/*.ts', 'test/components/**/*.ts'],
    ...lit.configs['flat/recommended'],
  },
  {
    files: ['components/**/*.ts'],
    ...wc.configs['flat/recommended'],
  },
  {
    // Plain JavaScript (scripts, bench, configs) is not in a TypeScript project: no type-aware rules there.
    files: ['**/*.{js,mjs,cjs,mts}'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: globals.node },
  },
  {
    // The demo page's own script and the test pages' helper scripts run in the browser.
    files: ['demo/*.js', 'test/components/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
);
