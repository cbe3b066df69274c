## Product photos (operators set them in the group; customers see them on the product's card)

op-photo-usage = Usage: /photo SKU URL, or send a photo with the caption /photo SKU. /photo SKU none removes the photo.
op-photo-set = { $sku }: this photo is now on the product's card.
op-photo-removed = { $sku }: the photo was removed; the card shows text only.
op-photo-invalid = That is neither an http(s) address of a picture nor a photo sent here. Nothing was changed.
op-photo-unreachable = Telegram could not load a picture from that address. Check that the address opens a JPEG or PNG picture. Nothing was changed.
