/**
 * Traces of the playground's server to an OpenTelemetry collector, when one is named: set
 * OTEL_EXPORTER_OTLP_ENDPOINT (e.g. http://localhost:4318 for Jaeger or an OTel Collector) and
 * every chat turn, model call, tool call — with its steps, questions and the waits between them,
 * across reloads and restarts — and MCP request arrives there. Without it, nothing is set up.
 * mcp-bridge only uses `@opentelemetry/api`; this is the app's side of it.
 */
import { context, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base'

const endpoint = process.env.OTEL_EXPORTER_OTLP_ENDPOINT
if (endpoint) {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME ?? 'mcp-bridge-playground' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` }), { scheduledDelayMillis: 500 })],
  })
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  trace.setGlobalTracerProvider(provider)
  // Spans still in the batch go out before the process ends.
  process.once('beforeExit', () => void provider.shutdown())
}
