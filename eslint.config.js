// The bugs a linter finds that the compiler does not: promises nobody awaits or handles, code nobody uses.
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", "dist/", "drizzle/", "bench/results/", "**/*.mjs", "**/*.js"] },
  {
    files: ["**/*.ts"],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "@typescript-eslint": tseslint.plugin },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: false }],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
    },
  },
  {
    // The code reads as steps: a function that outgrows a screen is split into named ones
    // (docs/architecture.md, "Folders").
    files: ["src/**/*.ts"],
    rules: { "max-lines-per-function": ["error", { max: 60 }] },
  },
);
