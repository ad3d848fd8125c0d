import type { NextConfig } from 'next';

// Only for this repository, where the chatwire packages are TypeScript sources resolved through the
// `@chatwire/source` export condition; an app using the published packages needs none of this.
const config: NextConfig = {
  experimental: { externalDir: true },
  transpilePackages: ['@chatwire/client', '@chatwire/core', '@chatwire/server', '@chatwire/storage'],
  webpack(webpackConfig: { resolve: { conditionNames?: string[]; extensionAlias?: Record<string, string[]> } }) {
    webpackConfig.resolve.conditionNames = ['@chatwire/source', ...(webpackConfig.resolve.conditionNames ?? ['...'])];
    webpackConfig.resolve.extensionAlias = { '.js': ['.ts', '.js'] };
    return webpackConfig;
  },
};

export default config;
