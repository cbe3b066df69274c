export {
  mayDo,
  ownerActor,
  refusalOf,
  RIGHTS,
  type Action,
  type Actor,
  type Forbidden,
  type Member,
} from "./may-do.ts";
