extension Schema {
    /// What sort of type a named type is.
    public enum TypeKind: String, Sendable, Hashable {
        case scalar, object, interface, union, enumeration, inputObject
    }

    /// One named type of the schema.
    public struct NamedType: Sendable {
        public let name: String
        public let kind: TypeKind
        public let description: String?
        /// The fields of an object or interface, in definition order (extensions' fields last).
        public let fields: [Field]
        /// The interfaces an object or interface declares it implements, as written.
        public let interfaces: [String]
        /// The member types of a union, as written.
        public let unionMembers: [String]
        /// The values of an enum, in definition order.
        public let enumValues: [EnumValue]
        /// The fields of an input object, in definition order.
        public let inputFields: [InputValue]
        /// Where the type is defined; `nil` for a built-in scalar.
        public let location: GraphQLLocation?
        private let fieldIndex: [String: Int]

        init(
            name: String, kind: TypeKind, description: String?, fields: [Field], interfaces: [String],
            unionMembers: [String], enumValues: [EnumValue], inputFields: [InputValue],
            location: GraphQLLocation?
        ) {
            self.name = name
            self.kind = kind
            self.description = description
            self.fields = fields
            self.interfaces = interfaces
            self.unionMembers = unionMembers
            self.enumValues = enumValues
            self.inputFields = inputFields
            self.location = location
            var index: [String: Int] = [:]
            index.reserveCapacity(fields.count)
            for (position, field) in fields.enumerated() where index[field.name] == nil {
                index[field.name] = position
            }
            self.fieldIndex = index
        }

        /// The field called `name` (not `__typename`; see ``Schema/field(_:on:)``).
        public func field(named name: String) -> Field? {
            fieldIndex[name].map { fields[$0] }
        }

        /// Objects, interfaces and unions: their values are records with sub-selections.
        public var isComposite: Bool { kind == .object || kind == .interface || kind == .union }
        /// Interfaces and unions.
        public var isAbstract: Bool { kind == .interface || kind == .union }
        /// Scalars and enums.
        public var isLeaf: Bool { kind == .scalar || kind == .enumeration }
        /// Types a variable or an argument may have: scalars, enums and input objects.
        public var isInputType: Bool { isLeaf || kind == .inputObject }
        /// Types a field may have: everything but input objects.
        public var isOutputType: Bool { kind != .inputObject }
    }

    /// A field of an object or interface.
    public struct Field: Sendable {
        public let name: String
        public let description: String?
        public let arguments: [InputValue]
        public let type: GraphQLTypeReference
        /// Where the field's name is; `nil` for `__typename`.
        public let location: GraphQLLocation?

        public init(
            name: String, description: String?, arguments: [InputValue], type: GraphQLTypeReference,
            location: GraphQLLocation?
        ) {
            self.name = name
            self.description = description
            self.arguments = arguments
            self.type = type
            self.location = location
        }

        /// The argument called `name`.
        public func argument(named name: String) -> InputValue? {
            arguments.first { $0.name == name }
        }

        /// The `__typename: String!` meta-field every composite type has.
        public static let typename = Field(
            name: "__typename", description: "The name of the object's type.", arguments: [],
            type: .nonNull(.named("String")), location: nil)
    }

    /// An argument of a field or a directive, or a field of an input object.
    public struct InputValue: Sendable {
        public let name: String
        public let description: String?
        public let type: GraphQLTypeReference
        /// The default value; it never mentions a variable.
        public let defaultValue: GraphQLValue?
        public let location: GraphQLLocation

        public init(
            name: String, description: String?, type: GraphQLTypeReference, defaultValue: GraphQLValue?,
            location: GraphQLLocation
        ) {
            self.name = name
            self.description = description
            self.type = type
            self.defaultValue = defaultValue
            self.location = location
        }
    }

    /// One value of an enum.
    public struct EnumValue: Sendable {
        public let name: String
        public let description: String?
        public let location: GraphQLLocation

        public init(name: String, description: String?, location: GraphQLLocation) {
            self.name = name
            self.description = description
            self.location = location
        }
    }
}
