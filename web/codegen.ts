// graphql-codegen: TypeScript types of the schema (../schema.graphqls) and of
// every operation the client sends (the /* GraphQL */ strings in src/api).
// Output is committed (src/gql/graphql.ts); .ci/run regenerates and diffs it.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: '../schema.graphqls',
  documents: ['src/api/**/*.ts'],
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
