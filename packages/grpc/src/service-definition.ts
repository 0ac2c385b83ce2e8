import { type DescMethod, type DescService, fromBinary, toBinary, create, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import type { MethodDefinition, ServiceDefinition } from "@grpc/grpc-js";
import { invalidUtf8Field } from "./describe-undecodable.js";

/** The grpc-js path of a method: `/package.Service/Method`. */
export function methodPath(method: DescMethod): string {
  return `/${method.parent.typeName}/${method.name}`;
}

/** Serializes a message given as a full message or an init shape. */
export function serializerFor(schema: DescMessage): (value: object) => Buffer {
  return (value) => {
    const message: MessageShape<DescMessage> = create(schema, value as never);
    const bytes = toBinary(schema, message);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  };
}

/** Deserializes bytes into a message of `schema`. */
export function deserializerFor(schema: DescMessage): (bytes: Buffer) => MessageShape<DescMessage> {
  return (bytes) => fromBinary(schema, bytes);
}

/** What a server's request deserializer gives for bytes that are not a valid message: the handler answers INVALID_ARGUMENT. */
export class UndecodableRequest {
  constructor(readonly message: string) {}
}

/**
 * Deserializes a request, never throwing (grpc-js would answer INTERNAL "Error deserializing
 * request"): bytes that are not a valid message become an {@link UndecodableRequest} naming the
 * message type and, for text that is not UTF-8, the field.
 */
export function requestDeserializerFor(schema: DescMessage): (bytes: Buffer) => MessageShape<DescMessage> | UndecodableRequest {
  return (bytes) => {
    try {
      return fromBinary(schema, bytes);
    } catch (error) {
      const field = invalidUtf8Field(schema, bytes);
      const why = field === undefined ? (error instanceof Error ? error.message : String(error)) : `field ${field} is not valid UTF-8`;
      return new UndecodableRequest(`request is not a valid ${schema.typeName}: ${why}`);
    }
  };
}

/**
 * Builds the grpc-js ServiceDefinition of a protobuf-es service descriptor,
 * keyed by each method's localName (lowerCamelCase), for any method kind.
 */
export function createServiceDefinition(service: DescService): ServiceDefinition {
  const definition: Record<string, MethodDefinition<object, object>> = {};
  for (const method of service.methods) {
    definition[method.localName] = {
      path: methodPath(method),
      requestStream: method.methodKind === "client_streaming" || method.methodKind === "bidi_streaming",
      responseStream: method.methodKind === "server_streaming" || method.methodKind === "bidi_streaming",
      requestSerialize: serializerFor(method.input),
      requestDeserialize: requestDeserializerFor(method.input),
      responseSerialize: serializerFor(method.output),
      responseDeserialize: deserializerFor(method.output),
      originalName: method.name,
    };
  }
  return definition;
}
