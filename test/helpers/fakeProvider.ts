export * from "../../examples/provider/server";
