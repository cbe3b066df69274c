// @orderbot/core/catalog: products, categories, search and photos.
export { createCatalogService, type CatalogService, type CatalogPage } from "./service.ts";
export type { CategoryView } from "./category-queries.ts";
export {
  categorySlugSchema,
  type AssignProductResult,
  type CategoryAdmin,
  type CategoryChangeResult,
  type CreateCategoryInput,
  type RemoveCategoryResult,
  type RenameCategoryInput,
} from "./categories.ts";
export { SEARCH_MAX_PAGE, searchWords, type SearchPage } from "./search.ts";
export {
  PRODUCT_TITLE_MAX,
  type EditProductInput,
  type EditProductResult,
  type ProductEdits,
} from "./edit-product.ts";
export {
  PRODUCT_PHOTO_URL_MAX,
  parseProductPhoto,
  type ProductPhotos,
  type SetProductPhotoResult,
} from "./photos.ts";
