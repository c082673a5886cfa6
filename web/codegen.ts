// graphql-codegen: TypeScript types of the schema (../schema.graphqls and
// ../graph/schema/*.graphqls) and of
// every operation sent to it: the client's (the /* GraphQL */ strings in
// src/api) and the Node API test's (test/api/operations.graphql). One file
// for both, so the client and the test can never disagree on a type; it is
// committed (src/gql/graphql.ts) and .ci/run regenerates and diffs it.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: ['../schema.graphqls', '../graph/schema/*.graphqls'],
  documents: ['src/api/**/*.ts', 'test/api/operations.graphql'],
  generates: {
    'src/gql/graphql.ts': {
      plugins: ['typescript-operations'],
      config: {
        enumsAsTypes: true,
        useTypeImports: true,
        skipTypename: true,
        avoidOptionals: { field: true, inputValue: false, object: false },
        scalars: { Percent: 'string', Money: 'string', Coefficient: 'string', Date: 'string', Time: 'string', Int64: 'number' },
      },
    },
  },
  hooks: {},
};
export default config;
