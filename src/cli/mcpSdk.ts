/**
 * The MCP SDK's server parts, in one place: the build makes this file a bundle of its own (dist/mcp-sdk.js, esbuild.mjs)
 * that `teamfusion mcp` loads on first use, so no other command parses the SDK.
 */
export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
