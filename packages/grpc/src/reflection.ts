import { createRegistry, toBinary, type DescFile, type DescService } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { ReflectionV1ServerReflection, ReflectionV1alphaServerReflection, type ReflectionV1ServerReflectionRequest } from "@loupe/proto";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { registerService, type ServiceRegistration } from "./server.js";
import type { HandlerContext } from "./handler-types.js";

type ResponseInit = MessageInitShape<typeof ReflectionV1ServerReflection.method.serverReflectionInfo.output>;

const NOT_FOUND = 5;
const UNIMPLEMENTED = 12;

function withDependencies(file: DescFile, seen = new Set<string>()): DescFile[] {
  if (seen.has(file.name)) return [];
  seen.add(file.name);
  return [file, ...file.dependencies.flatMap((dependency) => withDependencies(dependency, seen))];
}

function createAnswer(services: readonly DescService[]): (request: ReflectionV1ServerReflectionRequest) => ResponseInit {
  const files = new Map<string, DescFile>();
  for (const service of services) for (const file of withDependencies(service.file)) files.set(file.name, file);
  const registry = createRegistry(...files.values());
  const fileResponse = (file: DescFile): NonNullable<ResponseInit["messageResponse"]> => ({
    case: "fileDescriptorResponse",
    value: { fileDescriptorProto: withDependencies(file).map((entry) => toBinary(FileDescriptorProtoSchema, entry.proto)) },
  });
  const fileOfSymbol = (symbol: string): DescFile | undefined => {
    // A method symbol (pkg.Service.Method) is found through its service.
    const found = registry.get(symbol) ?? registry.get(symbol.slice(0, Math.max(0, symbol.lastIndexOf("."))));
    return found?.file;
  };
  return (request) => {
    const base = { validHost: request.host, originalRequest: request };
    const message = request.messageRequest;
    switch (message.case) {
      case "listServices":
        return { ...base, messageResponse: { case: "listServicesResponse", value: { service: services.map((service) => ({ name: service.typeName })) } } };
      case "fileByFilename":
      case "fileContainingSymbol": {
        const file = message.case === "fileByFilename" ? files.get(message.value) : fileOfSymbol(message.value);
        if (file) return { ...base, messageResponse: fileResponse(file) };
        return { ...base, messageResponse: { case: "errorResponse", value: { errorCode: NOT_FOUND, errorMessage: `not found [${message.value}]` } } };
      }
      default:
        return { ...base, messageResponse: { case: "errorResponse", value: { errorCode: UNIMPLEMENTED, errorMessage: "not supported" } } };
    }
  };
}

/**
 * gRPC server reflection (grpc.reflection.v1 and v1alpha, as grpcurl uses)
 * over the given services' descriptors and their imports.
 */
export function createReflectionServices(services: readonly DescService[]): ServiceRegistration[] {
  const all = [...services, ReflectionV1ServerReflection];
  const answer = createAnswer(all);
  async function* serve(requests: AsyncIterable<ReflectionV1ServerReflectionRequest>, _context: HandlerContext): AsyncIterable<ResponseInit> {
    for await (const request of requests) yield answer(request);
  }
  return [
    registerService(ReflectionV1ServerReflection, { serverReflectionInfo: serve }),
    // v1alpha messages are wire-identical to v1: the same answers serve both.
    registerService(ReflectionV1alphaServerReflection, {
      serverReflectionInfo: serve as never,
    }),
  ];
}
