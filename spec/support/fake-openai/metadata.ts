// Model-metadata endpoints (issue 14), each in its server's shape, reporting the configured windows:
//   vLLM       GET  /v1/models          data[].max_model_len
//   LM Studio  GET  /api/v0/models(/id) data[].max_context_length (native), loaded_context_length (loaded)
//   llama.cpp  GET  /props              default_generation_settings.n_ctx (and /v1/models meta.n_ctx_train)
//   ollama     POST /api/show           model_info["<arch>.context_length"] (native), parameters "num_ctx N"
//   OpenRouter GET  /v1/models          data[].context_length, top_provider.context_length
// Every vendor serves GET /v1/models (plain OpenAI list where it says nothing about windows). A metadata probe
// the vendor does not serve gets that server's own 404, which is NOT a protocol error: clients probe.
import type { ModelLimits, VendorMode } from "./types.ts";

export type MetadataAnswer = { status: number; body: unknown; contentType?: string };
type Models = Record<string, ModelLimits>;

/** Paths a client may probe to learn about models; any other unknown path stays a protocol error. */
const PROBES: [string, RegExp][] = [
  ["GET", /^\/v1\/models(\/.+)?$/],
  ["GET", /^\/props$/],
  ["GET", /^\/api\/v[01]\/models(\/.+)?$/],
  ["POST", /^\/api\/show$/],
  ["GET", /^\/api\/(tags|ps|version)$/],
];

export function isMetadataProbe(method: string, path: string): boolean {
  return PROBES.some(([m, re]) => m === method && re.test(path));
}

const created = 1_760_000_000;
const native = (l: ModelLimits) => l.maxContext ?? l.contextWindow;
const ARCH = "qwen2";

export function serveMetadata(vendor: VendorMode, method: string, path: string, body: any, models: Models = {}): MetadataAnswer {
  const entries = Object.entries(models);
  const ok = (b: unknown): MetadataAnswer => ({ status: 200, body: b });
  const list = (data: unknown[]) => ok({ object: "list", data });
  const get = method === "GET";

  switch (vendor) {
    case "vllm":
      if (get && path === "/v1/models")
        return list(entries.map(([id, l]) => ({ id, object: "model", created, owned_by: "vllm", root: id, parent: null, max_model_len: l.contextWindow, permission: [vllmPermission()] })));
      break;
    case "lmstudio": {
      const card = ([id, l]: [string, ModelLimits]) => ({ id, object: "model", type: l.images ? "vlm" : "llm", publisher: "lmstudio-community", arch: ARCH, compatibility_type: "gguf", quantization: "Q4_K_M", state: "loaded", max_context_length: native(l), loaded_context_length: l.contextWindow });
      if (get && path === "/api/v0/models") return list(entries.map(card));
      const one = get && path.match(/^\/api\/v0\/models\/(.+)$/);
      if (one) {
        const found = entries.find(([id]) => id === decodeURIComponent(one[1]!));
        return found ? ok(card(found)) : { status: 404, body: { error: `Model "${decodeURIComponent(one[1]!)}" not found` } };
      }
      if (get && path === "/v1/models") return ok({ data: entries.map(([id]) => ({ id, object: "model", owned_by: "organization_owner" })), object: "list" });
      break;
    }
    case "llamacpp": {
      // llama-server runs one model: the first configured one.
      const [first] = entries;
      if (get && path === "/props")
        return ok({
          default_generation_settings: { id: 0, id_task: -1, n_ctx: first?.[1].contextWindow ?? 4096, speculative: false, is_processing: false, params: { n_predict: -1, temperature: 0.8 } },
          total_slots: 1,
          model_alias: first?.[0] ?? "",
          model_path: `/models/${first?.[0] ?? "model"}.gguf`,
          modalities: { vision: first?.[1].images === true, audio: false },
          chat_template: "{{ messages }}",
          bos_token: "<|im_start|>",
          eos_token: "<|im_end|>",
          build_info: "b7010-fake0llama",
        });
      if (get && path === "/v1/models")
        return list(entries.slice(0, 1).map(([id, l]) => ({ id, object: "model", created, owned_by: "llamacpp", meta: { vocab_type: 2, n_vocab: 151936, n_ctx_train: native(l), n_embd: 3584, n_params: 7615616512, size: 4683073536 } })));
      break;
    }
    case "ollama": {
      if (method === "POST" && path === "/api/show") {
        const name = String(body?.model ?? body?.name ?? "");
        const l = models[name] ?? models[`${name}:latest`];
        if (!l) return { status: 404, body: { error: `model '${name}' not found` } };
        return ok(ollamaShow(name, l));
      }
      if (get && path === "/api/tags")
        return ok({ models: entries.map(([id]) => ({ name: id, model: id, modified_at: "2026-01-01T00:00:00Z", size: 4683087332, digest: "fake", details: ollamaDetails() })) });
      if (get && path === "/v1/models") return list(entries.map(([id]) => ({ id, object: "model", created, owned_by: "library" })));
      break;
    }
    case "openrouter":
      if (get && path === "/v1/models")
        return ok({
          data: entries.map(([id, l]) => ({
            id,
            canonical_slug: id,
            name: id,
            created,
            description: "",
            context_length: l.contextWindow,
            architecture: { modality: l.images ? "text+image->text" : "text->text", input_modalities: l.images ? ["text", "image"] : ["text"], output_modalities: ["text"], tokenizer: "Other", instruct_type: null },
            pricing: { prompt: "0.00000025", completion: "0.0000015", request: "0", image: "0" },
            top_provider: { context_length: l.contextWindow, max_completion_tokens: l.maxOutputTokens ?? null, is_moderated: false },
            per_request_limits: null,
            supported_parameters: ["tools", "tool_choice", "reasoning", "max_tokens"],
          })),
        });
      break;
    default:
      // OpenAI and the other hosted APIs: a plain list, nothing about windows.
      if (get && path === "/v1/models") return list(entries.map(([id]) => ({ id, object: "model", created, owned_by: "system" })));
      if (get && path.startsWith("/v1/models/")) {
        const id = decodeURIComponent(path.slice("/v1/models/".length));
        if (models[id]) return ok({ id, object: "model", created, owned_by: "system" });
      }
  }
  return notFound(vendor, method, path);
}

function vllmPermission() {
  return { id: "modelperm-fake", object: "model_permission", created, allow_create_engine: false, allow_sampling: true, allow_logprobs: true, allow_search_indices: false, allow_view: true, allow_fine_tuning: false, organization: "*", group: null, is_blocking: false };
}

const ollamaDetails = () => ({ parent_model: "", format: "gguf", family: ARCH, families: [ARCH], parameter_size: "7.6B", quantization_level: "Q4_K_M" });

function ollamaShow(name: string, l: ModelLimits) {
  return {
    license: "",
    modelfile: `FROM ${name}\nPARAMETER num_ctx ${l.contextWindow}\n`,
    // ollama prints parameters as a padded "name value" table, one per line.
    parameters: `num_ctx                        ${l.contextWindow}\nstop                           "<|im_end|>"`,
    template: "{{ .Prompt }}",
    details: ollamaDetails(),
    model_info: {
      "general.architecture": ARCH,
      "general.parameter_count": 7615616512,
      [`${ARCH}.context_length`]: native(l),
      [`${ARCH}.embedding_length`]: 3584,
    },
    capabilities: l.images ? ["completion", "tools", "vision"] : ["completion", "tools"],
    modified_at: "2026-01-01T00:00:00Z",
  };
}

/** Each server's own 404 for a path it does not serve. */
function notFound(vendor: VendorMode, method: string, path: string): MetadataAnswer {
  switch (vendor) {
    case "vllm":
      return { status: 404, body: { detail: "Not Found" } }; // FastAPI
    case "ollama":
      return { status: 404, body: "404 page not found", contentType: "text/plain" }; // gin
    case "llamacpp":
      return { status: 404, body: { error: { code: 404, message: "File Not Found", type: "not_found_error" } } };
    case "lmstudio":
      return { status: 404, body: { error: `Unexpected endpoint or method. (${method} ${path})` } };
    default:
      return { status: 404, body: { error: { message: `Invalid URL (${method} ${path})`, type: "invalid_request_error", param: null, code: null } } };
  }
}
