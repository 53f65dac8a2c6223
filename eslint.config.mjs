import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "node_modules/**",
      ".cache/**",
      "app/shopify/admin/types/**",
      "public/build/**",
      "test-results/**",
      "bench/.generated/**",
      // What `shopify app build` writes (minified bundles, gitignored).
      "extensions/*/dist/**",
      "**/node_modules/**",
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
);
