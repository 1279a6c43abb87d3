import type { UserContent } from "ai";
import { openImageStore } from "../image/store.ts";
import { storedImageOf } from "../image/part.ts";
import { imageSupport, noImagesLine } from "../provider/image-support.ts";
import type { Runtime } from "./runtime.ts";
import type { WireImages } from "./wire-images.ts";
import type { TurnResult } from "./turn.ts";
import type { EventSink } from "../events.ts";

/** A session's images: how its requests carry them, and the refusals when the model takes none. */
export type SessionImages = WireImages & {
  /** The line for a server's refusal of the request's images; from now on this model gets none in this session. */
  refused(): string;
  /**
   * A prompt with images for a model known not to take them: its turn, ended before anything is
   * sent, with the one line (also emitted as the turn's error). Undefined: send the prompt.
   */
  refusalBefore(content: string | UserContent, emit: EventSink): TurnResult | undefined;
};

/**
 * The images of a conversation whose runtime can change (/model): whether the model takes images
 * is read from the runtime at each request (image-support.ts). A model whose server refused them
 * is remembered as taking none (ContextWindow.learnNoImages: this session and later ones), so the
 * session's images become lines and it can go on.
 */
export function sessionImages(runtime: () => Runtime): SessionImages {
  let store: ReturnType<typeof openImageStore> | undefined;
  const support = () => {
    const rt = runtime();
    return imageSupport(rt.settings, rt.config, rt.window.info);
  };
  return {
    get api() {
      return runtime().settings.api;
    },
    get model() {
      return runtime().settings.model;
    },
    get store() {
      store ??= openImageStore(runtime().home);
      return store;
    },
    takes: () => support().takes,
    from: () => support().from,
    refused() {
      runtime().window.learnNoImages();
      return noImagesLine(runtime().settings.model, "the server refused the image");
    },
    refusalBefore(content, emit) {
      if (typeof content === "string" || !content.some((part) => storedImageOf(part))) return undefined;
      const { takes, from } = support();
      if (takes !== false) return undefined;
      const error = noImagesLine(runtime().settings.model, from);
      emit({ type: "error", message: error });
      return { status: "error", steps: 0, usage: { inputTokens: 0, outputTokens: 0 }, messages: [], error };
    },
  };
}
