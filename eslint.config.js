// The rulebook: typescript-eslint's type-aware rules, plus rules that encode bugs this project
// has had. Formatting is Prettier's job (eslint-config-prettier switches off what would clash).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Syntax the whole code base refuses (bugs this project has had); a block that adds its own
// selectors spreads these in, since a later block's list replaces an earlier one's.
const RESTRICTED_SYNTAX = [
  {
    // Bug we had: a schedule read through the machine's zone instead of the Location's.
    selector:
      'CallExpression[callee.property.name=/^(getHours|getMinutes|getSeconds|getDay|getDate|getMonth|getFullYear|getTimezoneOffset|setHours|setMinutes|setDate|setMonth|setFullYear|toLocaleDateString|toLocaleTimeString|toTimeString|toDateString)$/]',
    message:
      "Reads or writes the machine's time zone. Evaluate times in the Location's IANA zone with Luxon (DateTime.setZone), or use the UTC getters.",
  },
  {
    // Bug we had: Object.is told 0 from -0 and failed a property test at random.
    selector: "CallExpression[callee.object.name='Object'][callee.property.name='is']",
    message: 'Object.is tells 0 from -0 (and NaN equals NaN). Use === unless that is exactly what you need, and say why.',
  },
];

export default tseslint.config(
  { ignores: ['dist/', 'dist-bench/', 'coverage/', 'node_modules/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // Passing on a rejection we received (typed unknown) is not creating one from a non-Error.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-non-null-assertion': 'error',
      // Off: an async method without await is how we implement async interfaces and turn throws
      // into rejections; the bug class it hints at (a forgotten await) is no-floating-promises'.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-syntax': ['error', ...RESTRICTED_SYNTAX],
    },
  },
  {
    // Tests: vitest's asymmetric matchers (expect.stringMatching, expect.any) are typed `any`, and
    // a `!` on a value the test just produced fails as loudly as an assertion would.
    files: ['**/*.test.ts', 'test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // The in-memory index's hot loops read typed arrays and parallel arrays at indices the loop
    // bounds prove in range. `x[i]!` says so at no cost; a checked accessor costs the search
    // benchmark (docs/benchmarks.md), and `x[i] as number` is the same claim hidden from the
    // linter. Only the element-access form is allowed: any other `!` stays an error here.
    files: ['src/store/memory-index/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-restricted-syntax': [
        'error',
        ...RESTRICTED_SYNTAX,
        {
          selector: 'TSNonNullExpression:not([expression.type="MemberExpression"][expression.computed=true])',
          message: 'Only an index read (`x[i]!`) may be asserted here; narrow anything else with a check.',
        },
      ],
    },
  },
  {
    // The console's web app runs in the browser (bundled by scripts/build-console.mjs).
    files: ['src/console/web/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  prettier,
);
