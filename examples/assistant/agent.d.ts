/** A small agent with two tools; with no provider configured the offline demo model drives it. */
export declare const assistant: import("../../src").AgentDefinition<{
    current_time: ({
        deferLoading?: boolean;
        title?: string;
        providerOptions?: import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ProviderOptions;
        metadata?: import("@ai-sdk/provider", { with: { "resolution-mode": "import" } }).JSONObject;
        inputSchema: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<{
            timeZone: string;
        }>;
        contextSchema?: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<any> | undefined;
        needsApproval?: boolean | import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolNeedsApprovalFunction<{
            timeZone: string;
        }, any> | undefined;
        onInputStart?: ((options: import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        onInputDelta?: ((options: {
            inputTextDelta: string;
        } & import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        onInputAvailable?: ((options: {
            input: {
                timeZone: string;
            };
        } & import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        toModelOutput?: ((options: {
            toolCallId: string;
            input: {
                timeZone: string;
            };
            output: NoInfer<{
                timeZone: string;
                now: string;
            }>;
        }) => import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolResultOutput | PromiseLike<import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolResultOutput>) | undefined;
    } & {
        outputSchema?: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<{
            timeZone: string;
            now: string;
        }> | undefined;
        execute: import("ai", { with: { "resolution-mode": "import" } }).ToolExecuteFunction<{
            timeZone: string;
        }, {
            timeZone: string;
            now: string;
        }, any>;
    } & {
        description?: string | ((options: {
            context: any;
            experimental_sandbox?: import("ai", { with: { "resolution-mode": "import" } }).Experimental_SandboxSession;
        }) => string) | undefined;
        strict?: boolean;
        inputExamples?: {
            input: NoInfer<{
                timeZone: string;
            }>;
        }[] | undefined;
        id?: never;
        isProviderExecuted?: never;
        args?: never;
        supportsDeferredResults?: never;
    } & {
        type?: undefined | "function";
    } & {
        execute: import("ai", { with: { "resolution-mode": "import" } }).ToolExecuteFunction<{
            timeZone: string;
        }, {
            timeZone: string;
            now: string;
        }, any>;
    }) | ({
        deferLoading?: boolean;
        title?: string;
        providerOptions?: import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ProviderOptions;
        metadata?: import("@ai-sdk/provider", { with: { "resolution-mode": "import" } }).JSONObject;
        inputSchema: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<{
            timeZone: string;
        }>;
        contextSchema?: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<any> | undefined;
        needsApproval?: boolean | import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolNeedsApprovalFunction<{
            timeZone: string;
        }, any> | undefined;
        onInputStart?: ((options: import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        onInputDelta?: ((options: {
            inputTextDelta: string;
        } & import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        onInputAvailable?: ((options: {
            input: {
                timeZone: string;
            };
        } & import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        toModelOutput?: ((options: {
            toolCallId: string;
            input: {
                timeZone: string;
            };
            output: NoInfer<{
                timeZone: string;
                now: string;
            }>;
        }) => import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolResultOutput | PromiseLike<import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolResultOutput>) | undefined;
    } & {
        outputSchema?: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<{
            timeZone: string;
            now: string;
        }> | undefined;
        execute: import("ai", { with: { "resolution-mode": "import" } }).ToolExecuteFunction<{
            timeZone: string;
        }, {
            timeZone: string;
            now: string;
        }, any>;
    } & {
        description?: string | ((options: {
            context: any;
            experimental_sandbox?: import("ai", { with: { "resolution-mode": "import" } }).Experimental_SandboxSession;
        }) => string) | undefined;
        strict?: boolean;
        inputExamples?: {
            input: NoInfer<{
                timeZone: string;
            }>;
        }[] | undefined;
        id?: never;
        isProviderExecuted?: never;
        args?: never;
        supportsDeferredResults?: never;
    } & {
        type: "dynamic";
    } & {
        execute: import("ai", { with: { "resolution-mode": "import" } }).ToolExecuteFunction<{
            timeZone: string;
        }, {
            timeZone: string;
            now: string;
        }, any>;
    }) | ({
        deferLoading?: boolean;
        title?: string;
        providerOptions?: import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ProviderOptions;
        metadata?: import("@ai-sdk/provider", { with: { "resolution-mode": "import" } }).JSONObject;
        inputSchema: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<{
            timeZone: string;
        }>;
        contextSchema?: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<any> | undefined;
        needsApproval?: boolean | import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolNeedsApprovalFunction<{
            timeZone: string;
        }, any> | undefined;
        onInputStart?: ((options: import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        onInputDelta?: ((options: {
            inputTextDelta: string;
        } & import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        onInputAvailable?: ((options: {
            input: {
                timeZone: string;
            };
        } & import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        toModelOutput?: ((options: {
            toolCallId: string;
            input: {
                timeZone: string;
            };
            output: NoInfer<{
                timeZone: string;
                now: string;
            }>;
        }) => import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolResultOutput | PromiseLike<import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolResultOutput>) | undefined;
    } & {
        outputSchema?: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<{
            timeZone: string;
            now: string;
        }> | undefined;
        execute: import("ai", { with: { "resolution-mode": "import" } }).ToolExecuteFunction<{
            timeZone: string;
        }, {
            timeZone: string;
            now: string;
        }, any>;
    } & {
        type: "provider";
        id: `${string}.${string}`;
        args: Record<string, unknown>;
        description?: never;
        strict?: never;
        inputExamples?: never;
    } & {
        isProviderExecuted: false;
        supportsDeferredResults?: never;
    } & {
        execute: import("ai", { with: { "resolution-mode": "import" } }).ToolExecuteFunction<{
            timeZone: string;
        }, {
            timeZone: string;
            now: string;
        }, any>;
    }) | ({
        deferLoading?: boolean;
        title?: string;
        providerOptions?: import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ProviderOptions;
        metadata?: import("@ai-sdk/provider", { with: { "resolution-mode": "import" } }).JSONObject;
        inputSchema: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<{
            timeZone: string;
        }>;
        contextSchema?: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<any> | undefined;
        needsApproval?: boolean | import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolNeedsApprovalFunction<{
            timeZone: string;
        }, any> | undefined;
        onInputStart?: ((options: import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        onInputDelta?: ((options: {
            inputTextDelta: string;
        } & import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        onInputAvailable?: ((options: {
            input: {
                timeZone: string;
            };
        } & import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        toModelOutput?: ((options: {
            toolCallId: string;
            input: {
                timeZone: string;
            };
            output: NoInfer<{
                timeZone: string;
                now: string;
            }>;
        }) => import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolResultOutput | PromiseLike<import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolResultOutput>) | undefined;
    } & {
        outputSchema?: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<{
            timeZone: string;
            now: string;
        }> | undefined;
        execute: import("ai", { with: { "resolution-mode": "import" } }).ToolExecuteFunction<{
            timeZone: string;
        }, {
            timeZone: string;
            now: string;
        }, any>;
    } & {
        type: "provider";
        id: `${string}.${string}`;
        args: Record<string, unknown>;
        description?: never;
        strict?: never;
        inputExamples?: never;
    } & {
        isProviderExecuted: true;
        supportsDeferredResults?: boolean;
    } & {
        execute: import("ai", { with: { "resolution-mode": "import" } }).ToolExecuteFunction<{
            timeZone: string;
        }, {
            timeZone: string;
            now: string;
        }, any>;
    });
    text_stats: ({
        deferLoading?: boolean;
        title?: string;
        providerOptions?: import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ProviderOptions;
        metadata?: import("@ai-sdk/provider", { with: { "resolution-mode": "import" } }).JSONObject;
        inputSchema: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<{
            text: string;
        }>;
        contextSchema?: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<any> | undefined;
        needsApproval?: boolean | import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolNeedsApprovalFunction<{
            text: string;
        }, any> | undefined;
        onInputStart?: ((options: import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        onInputDelta?: ((options: {
            inputTextDelta: string;
        } & import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        onInputAvailable?: ((options: {
            input: {
                text: string;
            };
        } & import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        toModelOutput?: ((options: {
            toolCallId: string;
            input: {
                text: string;
            };
            output: NoInfer<{
                words: number;
                characters: number;
            }>;
        }) => import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolResultOutput | PromiseLike<import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolResultOutput>) | undefined;
    } & {
        outputSchema?: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<{
            words: number;
            characters: number;
        }> | undefined;
        execute: import("ai", { with: { "resolution-mode": "import" } }).ToolExecuteFunction<{
            text: string;
        }, {
            words: number;
            characters: number;
        }, any>;
    } & {
        description?: string | ((options: {
            context: any;
            experimental_sandbox?: import("ai", { with: { "resolution-mode": "import" } }).Experimental_SandboxSession;
        }) => string) | undefined;
        strict?: boolean;
        inputExamples?: {
            input: NoInfer<{
                text: string;
            }>;
        }[] | undefined;
        id?: never;
        isProviderExecuted?: never;
        args?: never;
        supportsDeferredResults?: never;
    } & {
        type?: undefined | "function";
    } & {
        execute: import("ai", { with: { "resolution-mode": "import" } }).ToolExecuteFunction<{
            text: string;
        }, {
            words: number;
            characters: number;
        }, any>;
    }) | ({
        deferLoading?: boolean;
        title?: string;
        providerOptions?: import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ProviderOptions;
        metadata?: import("@ai-sdk/provider", { with: { "resolution-mode": "import" } }).JSONObject;
        inputSchema: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<{
            text: string;
        }>;
        contextSchema?: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<any> | undefined;
        needsApproval?: boolean | import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolNeedsApprovalFunction<{
            text: string;
        }, any> | undefined;
        onInputStart?: ((options: import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        onInputDelta?: ((options: {
            inputTextDelta: string;
        } & import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        onInputAvailable?: ((options: {
            input: {
                text: string;
            };
        } & import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        toModelOutput?: ((options: {
            toolCallId: string;
            input: {
                text: string;
            };
            output: NoInfer<{
                words: number;
                characters: number;
            }>;
        }) => import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolResultOutput | PromiseLike<import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolResultOutput>) | undefined;
    } & {
        outputSchema?: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<{
            words: number;
            characters: number;
        }> | undefined;
        execute: import("ai", { with: { "resolution-mode": "import" } }).ToolExecuteFunction<{
            text: string;
        }, {
            words: number;
            characters: number;
        }, any>;
    } & {
        description?: string | ((options: {
            context: any;
            experimental_sandbox?: import("ai", { with: { "resolution-mode": "import" } }).Experimental_SandboxSession;
        }) => string) | undefined;
        strict?: boolean;
        inputExamples?: {
            input: NoInfer<{
                text: string;
            }>;
        }[] | undefined;
        id?: never;
        isProviderExecuted?: never;
        args?: never;
        supportsDeferredResults?: never;
    } & {
        type: "dynamic";
    } & {
        execute: import("ai", { with: { "resolution-mode": "import" } }).ToolExecuteFunction<{
            text: string;
        }, {
            words: number;
            characters: number;
        }, any>;
    }) | ({
        deferLoading?: boolean;
        title?: string;
        providerOptions?: import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ProviderOptions;
        metadata?: import("@ai-sdk/provider", { with: { "resolution-mode": "import" } }).JSONObject;
        inputSchema: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<{
            text: string;
        }>;
        contextSchema?: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<any> | undefined;
        needsApproval?: boolean | import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolNeedsApprovalFunction<{
            text: string;
        }, any> | undefined;
        onInputStart?: ((options: import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        onInputDelta?: ((options: {
            inputTextDelta: string;
        } & import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        onInputAvailable?: ((options: {
            input: {
                text: string;
            };
        } & import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        toModelOutput?: ((options: {
            toolCallId: string;
            input: {
                text: string;
            };
            output: NoInfer<{
                words: number;
                characters: number;
            }>;
        }) => import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolResultOutput | PromiseLike<import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolResultOutput>) | undefined;
    } & {
        outputSchema?: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<{
            words: number;
            characters: number;
        }> | undefined;
        execute: import("ai", { with: { "resolution-mode": "import" } }).ToolExecuteFunction<{
            text: string;
        }, {
            words: number;
            characters: number;
        }, any>;
    } & {
        type: "provider";
        id: `${string}.${string}`;
        args: Record<string, unknown>;
        description?: never;
        strict?: never;
        inputExamples?: never;
    } & {
        isProviderExecuted: false;
        supportsDeferredResults?: never;
    } & {
        execute: import("ai", { with: { "resolution-mode": "import" } }).ToolExecuteFunction<{
            text: string;
        }, {
            words: number;
            characters: number;
        }, any>;
    }) | ({
        deferLoading?: boolean;
        title?: string;
        providerOptions?: import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ProviderOptions;
        metadata?: import("@ai-sdk/provider", { with: { "resolution-mode": "import" } }).JSONObject;
        inputSchema: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<{
            text: string;
        }>;
        contextSchema?: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<any> | undefined;
        needsApproval?: boolean | import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolNeedsApprovalFunction<{
            text: string;
        }, any> | undefined;
        onInputStart?: ((options: import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        onInputDelta?: ((options: {
            inputTextDelta: string;
        } & import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        onInputAvailable?: ((options: {
            input: {
                text: string;
            };
        } & import("ai", { with: { "resolution-mode": "import" } }).ToolExecutionOptions<any>) => void | PromiseLike<void>) | undefined;
        toModelOutput?: ((options: {
            toolCallId: string;
            input: {
                text: string;
            };
            output: NoInfer<{
                words: number;
                characters: number;
            }>;
        }) => import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolResultOutput | PromiseLike<import("@ai-sdk/provider-utils", { with: { "resolution-mode": "import" } }).ToolResultOutput>) | undefined;
    } & {
        outputSchema?: import("ai", { with: { "resolution-mode": "import" } }).FlexibleSchema<{
            words: number;
            characters: number;
        }> | undefined;
        execute: import("ai", { with: { "resolution-mode": "import" } }).ToolExecuteFunction<{
            text: string;
        }, {
            words: number;
            characters: number;
        }, any>;
    } & {
        type: "provider";
        id: `${string}.${string}`;
        args: Record<string, unknown>;
        description?: never;
        strict?: never;
        inputExamples?: never;
    } & {
        isProviderExecuted: true;
        supportsDeferredResults?: boolean;
    } & {
        execute: import("ai", { with: { "resolution-mode": "import" } }).ToolExecuteFunction<{
            text: string;
        }, {
            words: number;
            characters: number;
        }, any>;
    });
}>;
